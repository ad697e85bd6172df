import type { Reader } from '../../codecs/reader.js';

/** A request written to the socket whose response has not arrived yet. */
export interface PendingRequest {
  readonly correlationId: number;
  readonly apiName: string;
  readonly version: number;
  readonly responseHeaderVersion: number;
  /** Decodes the response body; the reader starts right after the response header. */
  readonly decode: (r: Reader) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

interface Entry {
  readonly request: PendingRequest;
  timer: NodeJS.Timeout | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * Responses still owed to requests that timed out or were aborted. Kafka answers them anyway; remembering the
 * ids lets those late answers be dropped instead of being mistaken for a desynchronised stream. Bounded because
 * a broker that never answers would otherwise make it grow forever.
 */
const MAX_ABANDONED = 4096;

/** The requests in flight on one connection, keyed by correlation id, with their timeouts and abort hooks. */
export class InFlightRequests {
  private readonly entries = new Map<number, Entry>();
  private readonly abandoned = new Set<number>();

  get size(): number {
    return this.entries.size;
  }

  /**
   * Registers a request. `onTimeout` and `onAbort` build the rejection; the request is then forgotten and its
   * correlation id remembered as abandoned.
   */
  add(
    request: PendingRequest,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    onTimeout: () => Error,
    onAbort: (reason: unknown) => Error,
  ): void {
    const entry: Entry = { request, timer: undefined, signal, onAbort: undefined };
    if (Number.isFinite(timeoutMs)) {
      entry.timer = setTimeout(() => this.abandon(request.correlationId, onTimeout()), timeoutMs);
    }
    if (signal !== undefined) {
      entry.onAbort = () => this.abandon(request.correlationId, onAbort(signal.reason));
      signal.addEventListener('abort', entry.onAbort, { once: true });
    }
    this.entries.set(request.correlationId, entry);
  }

  /** Removes and returns the request a response belongs to. */
  take(correlationId: number): PendingRequest | undefined {
    const entry = this.entries.get(correlationId);
    if (entry === undefined) return undefined;
    this.entries.delete(correlationId);
    this.release(entry);
    return entry.request;
  }

  /** Whether a response with this id is a late answer to a request given up on (and forgets the id). */
  takeAbandoned(correlationId: number): boolean {
    return this.abandoned.delete(correlationId);
  }

  /** Rejects and forgets every request, e.g. when the connection dies. */
  rejectAll(err: Error): void {
    const entries = [...this.entries.values()];
    this.entries.clear();
    this.abandoned.clear();
    for (const entry of entries) {
      this.release(entry);
      entry.request.reject(err);
    }
  }

  private abandon(correlationId: number, err: Error): void {
    const request = this.take(correlationId);
    if (request === undefined) return;
    this.abandoned.add(correlationId);
    if (this.abandoned.size > MAX_ABANDONED) {
      const oldest = this.abandoned.values().next().value as number;
      this.abandoned.delete(oldest);
    }
    request.reject(err);
  }

  private release(entry: Entry): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    if (entry.onAbort !== undefined) entry.signal?.removeEventListener('abort', entry.onAbort);
  }
}
