import { ErrorCode } from '../../../protocol/error-codes.js';

/**
 * One broker's incremental fetch session (KIP-227), as Kafka's FetchSessionHandler keeps it. After a full
 * fetch the broker remembers the partitions and their fetch state under a session id; each later request
 * names only partitions that are new or changed and those to forget, and each response carries only
 * partitions with news. So a consumer caught up on many partitions sends and receives almost nothing.
 *
 * Epochs: 0 asks for a new session (with a full partition list), -1 means no session at all, and 1.. number
 * the incremental requests of a session. Any failure ends the session: the next request is full again.
 */

/** What the broker's session holds for one partition; a change in any field means sending it again. */
export interface SessionPartition {
  /** `topic\0partition` (partitionKey), made once per partition rather than once per request. */
  key: string;
  topic: string;
  topicId: string | undefined;
  partition: number;
  fetchOffset: bigint;
  lastFetchedEpoch: number;
  currentLeaderEpoch: number;
  maxBytes: number;
}

export interface SessionRequest {
  sessionId: number;
  sessionEpoch: number;
  /** Partitions to put in the request's `topics`. */
  send: SessionPartition[];
  /** Partitions to put in `forgottenTopicsData`. */
  forget: SessionPartition[];
  /** A full request: the response names every partition sent (incremental ones name only those with news). */
  full: boolean;
}

const INITIAL_EPOCH = 0;
const FINAL_EPOCH = -1;
const NO_SESSION = 0;

export class FetchSession {
  private sessionId = NO_SESSION;
  private epoch = INITIAL_EPOCH;
  /** The partitions the broker's session holds, as last acknowledged. */
  private held = new Map<string, SessionPartition>();
  /** What `held` becomes if the request being built succeeds. */
  private pending: Map<string, SessionPartition> | undefined;

  /** @param enabled false for Fetch v0-6 or when sessions are turned off: every request is full and sessionless. */
  constructor(private enabled: boolean) {}

  get id(): number {
    return this.sessionId;
  }

  /** Whether the broker keeps a session for us now (a later close should tell it to drop it). */
  get isOpen(): boolean {
    return this.enabled && this.sessionId !== NO_SESSION;
  }

  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    this.reset(true);
  }

  /** The request for the partitions wanted now. */
  build(wanted: readonly SessionPartition[]): SessionRequest {
    const next = new Map<string, SessionPartition>();
    for (const p of wanted) next.set(p.key, p);
    this.pending = next;
    if (!this.enabled)
      return { sessionId: NO_SESSION, sessionEpoch: FINAL_EPOCH, send: [...wanted], forget: [], full: true };
    if (this.epoch === INITIAL_EPOCH) {
      // sessionId here is 0 (a new session) or the old one, which the broker then closes before opening a new one.
      return { sessionId: this.sessionId, sessionEpoch: INITIAL_EPOCH, send: [...wanted], forget: [], full: true };
    }
    const send: SessionPartition[] = [];
    for (const p of wanted) {
      const held = this.held.get(p.key);
      if (held === undefined || changed(held, p)) send.push(p);
    }
    const forget: SessionPartition[] = [];
    for (const [key, p] of this.held) if (!next.has(key)) forget.push(p);
    return { sessionId: this.sessionId, sessionEpoch: this.epoch, send, forget, full: false };
  }

  /**
   * Applies a response's session fields. Returns false when the broker refused the session (its partitions
   * must then be ignored and fetched again with a full request).
   */
  onResponse(errorCode: number, responseSessionId: number): boolean {
    const pending = this.pending ?? new Map();
    this.pending = undefined;
    if (!this.enabled) return errorCode === 0;
    if (errorCode !== 0) {
      // Not found: the broker forgot it (evicted, restarted); start a new one. Otherwise close ours and start anew.
      this.reset(errorCode === ErrorCode.FETCH_SESSION_ID_NOT_FOUND);
      return false;
    }
    if (this.epoch === INITIAL_EPOCH) {
      // A broker whose session cache is full answers without a session: keep asking with full requests.
      this.sessionId = responseSessionId;
      this.epoch = responseSessionId === NO_SESSION ? INITIAL_EPOCH : 1;
    } else {
      this.epoch = this.epoch >= 0x7fffffff ? 1 : this.epoch + 1;
    }
    this.held = pending;
    return true;
  }

  /** The request failed (connection lost, timeout, abort): the broker may or may not have moved on, so start over. */
  onFailure(): void {
    this.pending = undefined;
    this.reset(false);
  }

  /** The request that tells the broker to drop the session (epoch -1 with our id), for close. */
  closeRequest(): { sessionId: number; sessionEpoch: number } | undefined {
    if (!this.isOpen) return undefined;
    const request = { sessionId: this.sessionId, sessionEpoch: FINAL_EPOCH };
    this.sessionId = NO_SESSION;
    this.reset(true);
    return request;
  }

  private reset(forgetId: boolean): void {
    if (forgetId) this.sessionId = NO_SESSION;
    this.epoch = INITIAL_EPOCH;
    this.held = new Map();
  }
}

function changed(a: SessionPartition, b: SessionPartition): boolean {
  return (
    a.fetchOffset !== b.fetchOffset ||
    a.lastFetchedEpoch !== b.lastFetchedEpoch ||
    a.currentLeaderEpoch !== b.currentLeaderEpoch ||
    a.maxBytes !== b.maxBytes ||
    a.topicId !== b.topicId
  );
}

/** Session-level errors after which the response's partitions mean nothing. */
export function isSessionError(code: number): boolean {
  return (
    code === ErrorCode.FETCH_SESSION_ID_NOT_FOUND ||
    code === ErrorCode.INVALID_FETCH_SESSION_EPOCH ||
    code === ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR
  );
}
