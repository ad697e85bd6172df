/**
 * Fetch: partition logs served from a fetch offset up to the partition's max bytes, with KIP-227 sessions kept
 * per broker, a short hold when there is nothing to return, and the hooks a test steers answers with.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';
import type { PartitionLog } from '../partition-log.js';

interface Held {
  topic: string;
  partition: number;
  fetchOffset: bigint;
  maxBytes: number;
}

export type Sessions = Map<number, { node: number; epoch: number; partitions: Map<string, Held> }>;

/** What a test can make a partition's answer say instead of (or besides) its records. */
export interface PartitionOverride {
  errorCode?: number;
  divergingEpoch?: { epoch: number; endOffset: bigint };
  preferredReadReplica?: number;
}

export interface FetchHooks {
  /** The next incremental Fetch to `node` (a session's epoch 1+) fails with this session-level error (once). */
  sessionError?: { node: number; code: number };
  /** Overrides one partition's answer; consulted for every partition of every fetch. */
  partition?: (node: number, topic: string, partition: number, fetchOffset: bigint) => PartitionOverride | undefined;
  /** Brokers that serve reads as followers (KIP-392) besides the leader. */
  followers?: Set<number>;
}

let nextSessionId = 1000;
const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export async function answerFetch(kafka: FakeKafka, { node, version, body }: FakeRequest, signal?: AbortSignal) {
  const hooks = kafka.fetchHooks;
  if (hooks.sessionError?.node === node && body.sessionEpoch > 0) {
    const code = hooks.sessionError.code;
    hooks.sessionError = undefined;
    return { errorCode: code, sessionId: 0, responses: [] };
  }
  const requested = new Map<string, Held>();
  for (const t of body.topics) {
    const topic = version >= 13 ? kafka.topicNameOf(t.topicId) : t.topic;
    for (const p of t.partitions) {
      requested.set(key(topic, p.partition), {
        topic,
        partition: p.partition,
        fetchOffset: p.fetchOffset,
        maxBytes: p.partitionMaxBytes,
      });
    }
  }
  let wanted = requested;
  let sessionId = 0;
  let full = true;
  if (version >= 7 && body.sessionEpoch !== -1) {
    if (body.sessionEpoch === 0) {
      if (body.sessionId !== 0) kafka.fetchSessions.delete(body.sessionId);
      sessionId = nextSessionId++;
      kafka.fetchSessions.set(sessionId, { node, epoch: 1, partitions: new Map(requested) });
    } else {
      const session = kafka.fetchSessions.get(body.sessionId);
      if (session === undefined || session.node !== node) {
        return { errorCode: ErrorCode.FETCH_SESSION_ID_NOT_FOUND, sessionId: 0, responses: [] };
      }
      if (session.epoch !== body.sessionEpoch) {
        return { errorCode: ErrorCode.INVALID_FETCH_SESSION_EPOCH, sessionId: 0, responses: [] };
      }
      session.epoch++;
      for (const [k, held] of requested) session.partitions.set(k, held);
      for (const t of body.forgottenTopicsData ?? []) {
        const topic = version >= 13 ? kafka.topicNameOf(t.topicId) : t.topic;
        for (const p of t.partitions) session.partitions.delete(key(topic, p));
      }
      wanted = session.partitions;
      sessionId = body.sessionId;
      full = false;
    }
  } else if (version >= 7 && body.sessionId !== 0) {
    kafka.fetchSessions.delete(body.sessionId);
  }

  const byTopic = new Map<string, any[]>();
  let anyData = false;
  for (const held of wanted.values()) {
    const p = kafka.partition(held.topic, held.partition);
    const answer = partitionAnswer(p, node, held, hooks);
    const news =
      answer.records !== null ||
      answer.errorCode !== 0 ||
      answer.preferredReadReplica >= 0 ||
      answer.divergingEpoch.epoch >= 0;
    if (answer.records !== null) anyData = true;
    if (!full && !news) continue;
    const list = byTopic.get(held.topic) ?? [];
    list.push(answer);
    byTopic.set(held.topic, list);
  }
  // A broker holds a fetch with nothing to return for up to maxWaitMs; a short wait keeps tests quick.
  if (!anyData && body.maxWaitMs > 0) await pause(Math.min(body.maxWaitMs, 20), signal);
  return {
    errorCode: 0,
    sessionId,
    responses: [...byTopic].map(([topic, partitions]) => ({
      topic,
      topicId: kafka.topics.get(topic)!.topicId,
      partitions,
    })),
  };
}

function partitionAnswer(p: PartitionLog, node: number, held: Held, hooks: FetchHooks) {
  const base = {
    partitionIndex: held.partition,
    errorCode: 0,
    highWatermark: p.highWatermark,
    lastStableOffset: p.lastStableOffset,
    logStartOffset: p.logStart,
    divergingEpoch: { epoch: -1, endOffset: -1n },
    abortedTransactions: null,
    preferredReadReplica: -1,
    records: null as Buffer | null,
  };
  const override = hooks.partition?.(node, held.topic, held.partition, held.fetchOffset);
  if (override !== undefined) {
    return { ...base, ...override, divergingEpoch: override.divergingEpoch ?? base.divergingEpoch };
  }
  if (p.leader !== node && !hooks.followers?.has(node)) return { ...base, errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER };
  if (held.fetchOffset < p.logStart || held.fetchOffset > p.logEnd) {
    return { ...base, errorCode: ErrorCode.OFFSET_OUT_OF_RANGE };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for (const b of p.batches) {
    if (b.lastOffset < held.fetchOffset) continue;
    if (chunks.length > 0 && size + b.bytes.length > held.maxBytes) break;
    chunks.push(b.bytes);
    size += b.bytes.length;
  }
  return { ...base, records: chunks.length === 0 ? null : Buffer.concat(chunks) };
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
