import { type PendingRecord, ProducerBatch } from './batch.js';
import { BatchBuffers } from './batch-buffers.js';

/** One partition's batches waiting to be sent, oldest first; retries are put back at the front. */
export interface PartitionQueue {
  readonly topic: string;
  readonly partition: number;
  readonly batches: ProducerBatch[];
}

export interface AppendResult {
  batch: ProducerBatch;
  /** The record opened a new batch (the sender must plan its linger). */
  newBatch: boolean;
  /** The partition now has a batch ready to go for being full. */
  full: boolean;
  /**
   * The sticky partitioner may move on without losing batching: the record opened a new batch, or the batch it
   * went into is full (Java's `allBatchesFull` after an append to an existing batch).
   */
  switchAllowed: boolean;
}

export interface ReadyResult {
  /** Leader node id -> partitions whose first batch may be sent now. */
  byNode: Map<number, PartitionQueue[]>;
  /** Topics with batches waiting and no known leader: their metadata must be refreshed. */
  unknownLeaders: Set<string>;
  /** Epoch ms when the next waiting batch becomes sendable or expires; Infinity if none does. */
  nextCheckAt: number;
}

export interface AccumulatorConfig {
  batchSize: number;
  lingerMs: number;
  deliveryTimeoutMs: number;
  /** Codec id; 0 (none) keeps the compression ratio at 1. */
  compression: number;
  /** The producer's acks (default -1): a request carries batches of one acks only. */
  acks?: number;
  /**
   * The producer's highWaterMark: the pool of batch buffers keeps at most this many bytes of them unused
   * (default: two buffers).
   */
  highWaterMark?: number;
}

/**
 * Java's CompressionRatioEstimator: the expected ratio starts at 1 and follows what batches of the topic really
 * compress to, falling slowly (by 0.005) and rising fast (by 0.05), so that batches rarely overshoot.
 */
const RATIO_DETERIORATE_STEP = 0.05;
const RATIO_IMPROVE_STEP = 0.005;
/** Slack on the estimate, as Java's COMPRESSION_RATE_ESTIMATION_FACTOR. */
const RATIO_SAFETY = 1.05;

/**
 * Per-partition queues of batches (Java's RecordAccumulator): `send()` appends to the last batch of its
 * partition, the sender asks which partitions are ready (full, lingered long enough, being flushed, or due for
 * a retry) and drains the first batch of each into one request per broker.
 */
export class RecordAccumulator {
  /** Topic -> expected compression ratio of its batches. */
  private readonly ratios = new Map<string, number>();
  /** Topic -> its queues by partition number: found without building a key string per record. */
  private readonly byTopic = new Map<string, PartitionQueue[]>();
  private readonly queues: PartitionQueue[] = [];
  private readonly incomplete = new Set<ProducerBatch>();
  /** Round-robin start of draining, so no partition is always last to fit in a request. */
  private drainIndex = 0;
  /** A flush or close is waiting: every batch is ready at once. */
  flushing = 0;
  closing = false;

  /** Batch buffers, reused from one batch to the next (batch-buffers.ts). */
  private readonly buffers: BatchBuffers;

  constructor(private readonly config: AccumulatorConfig) {
    const { batchSize, highWaterMark = 0 } = config;
    this.buffers = new BatchBuffers(batchSize, Math.max(2, Math.ceil(highWaterMark / batchSize)));
  }

  /** What append() returns: one object, refilled by each append (no allocation per record). */
  private readonly appended: AppendResult = {
    batch: undefined as unknown as ProducerBatch,
    newBatch: false,
    full: false,
    switchAllowed: false,
  };

  /**
   * Appends a record to its partition (`record.partition`, already chosen). The result is valid until the next
   * append: it is the same object each time.
   */
  append(record: PendingRecord, now: number): Readonly<AppendResult> {
    const q = this.queue(record.topic, record.partition);
    const batches = q.batches;
    const last = batches.length > 0 ? batches[batches.length - 1] : undefined;
    const { batchSize } = this.config;
    // A batch holds records of one setting: a send with other settings opens the next batch (order kept).
    if (last !== undefined && last.settings === record.settings && last.tryAppend(record, batchSize)) {
      const lastFull = last.isFull(batchSize);
      return this.result(last, false, batches.length > 1 || lastFull, lastFull);
    }
    // The learnt ratio is the producer's codec's; a send's own codec fills batches by raw bytes.
    const learnt = this.config.compression !== 0 && record.settings === undefined;
    const ratio = learnt ? Math.min(1, (this.ratios.get(record.topic) ?? 1) * RATIO_SAFETY) : 1;
    const batch = new ProducerBatch(record.topic, record.partition, now, ratio, record.settings, this.buffers);
    batch.tryAppend(record, batchSize);
    batches.push(batch);
    this.track(batch);
    return this.result(batch, true, batches.length > 1 || batch.isFull(batchSize), true);
  }

  private result(batch: ProducerBatch, newBatch: boolean, full: boolean, switchAllowed: boolean): AppendResult {
    const r = this.appended;
    r.batch = batch;
    r.newBatch = newBatch;
    r.full = full;
    r.switchAllowed = switchAllowed;
    return r;
  }

  /** Which partitions have a batch to send now, grouped by leader; `leaderOf` gives -1 when unknown. */
  ready(now: number, leaderOf: (topic: string, partition: number) => number, exhausted: boolean): ReadyResult {
    const byNode = new Map<number, PartitionQueue[]>();
    const unknownLeaders = new Set<string>();
    let nextCheckAt = Number.POSITIVE_INFINITY;
    for (const q of this.queues) {
      const head = q.batches[0];
      if (head === undefined) continue;
      nextCheckAt = Math.min(nextCheckAt, head.createdAt + this.config.deliveryTimeoutMs);
      const leader = leaderOf(q.topic, q.partition);
      if (leader < 0) {
        unknownLeaders.add(q.topic);
        continue;
      }
      const sendableAt = this.sendableAt(q, head, exhausted);
      if (sendableAt > now) {
        nextCheckAt = Math.min(nextCheckAt, sendableAt);
        continue;
      }
      const list = byNode.get(leader);
      if (list === undefined) byNode.set(leader, [q]);
      else list.push(q);
    }
    return { byNode, unknownLeaders, nextCheckAt };
  }

  /**
   * Takes at most one batch per partition (Produce v3+ allows one per partition per request) from `queues`, up
   * to `maxBytes` in total (a single larger batch still goes, alone). `admit` may refuse a batch (idempotence
   * holds a partition back while an earlier sequence is unresolved); a refused batch stays first in line.
   */
  drain(
    queues: readonly PartitionQueue[],
    now: number,
    maxBytes: number,
    exhausted: boolean,
    admit: (batch: ProducerBatch) => boolean,
  ): ProducerBatch[] {
    const drained: ProducerBatch[] = [];
    let size = 0;
    const n = queues.length;
    if (n === 0) return drained;
    const start = this.drainIndex++ % n;
    for (let i = 0; i < n; i++) {
      const q = queues[(start + i) % n];
      const head = q.batches[0];
      if (head === undefined || this.sendableAt(q, head, exhausted) > now) continue;
      if (drained.length > 0 && size + head.sizeInBytes > maxBytes) break;
      // acks is per request: a batch of other acks waits for the next request.
      if (drained.length > 0 && this.acksOf(head) !== this.acksOf(drained[0])) continue;
      if (!admit(head)) continue;
      q.batches.shift();
      drained.push(head);
      size += head.sizeInBytes;
    }
    return drained;
  }

  /** The acks a batch is sent with. */
  acksOf(batch: ProducerBatch): number {
    return batch.settings?.acks ?? this.config.acks ?? -1;
  }

  /** Learns from a batch just compressed (with the producer's codec) how well the topic's records compress. */
  observeCompression(topic: string, rawBytes: number, compressedBytes: number): void {
    if (this.config.compression === 0 || rawBytes <= 0) return;
    const observed = compressedBytes / rawBytes;
    const current = this.ratios.get(topic) ?? 1;
    if (observed === current) return;
    const next =
      observed < current
        ? Math.max(current - RATIO_IMPROVE_STEP, observed)
        : Math.max(current + RATIO_DETERIORATE_STEP, observed);
    this.ratios.set(topic, Math.min(next, 1));
  }

  /**
   * Puts a batch back for a retry: ahead of every batch not yet sent, and among retried ones in sequence order,
   * so that an idempotent partition resends its batches in the order the broker must see them.
   */
  reenqueue(batch: ProducerBatch): void {
    const q = this.queue(batch.topic, batch.partition);
    let i = 0;
    while (i < q.batches.length) {
      const other = q.batches[i];
      if (!other.sent || (batch.hasSequence && other.hasSequence && other.baseSequence > batch.baseSequence)) break;
      i++;
    }
    q.batches.splice(i, 0, batch);
    this.track(batch);
  }

  /** Removes and returns queued batches older than the delivery timeout (only from the front, as Java does). */
  expire(now: number): ProducerBatch[] {
    const expired: ProducerBatch[] = [];
    for (const q of this.queues) {
      while (q.batches.length > 0 && now - q.batches[0].createdAt >= this.config.deliveryTimeoutMs) {
        expired.push(q.batches.shift()!);
      }
    }
    return expired;
  }

  /** Removes and returns every queued batch (a forced close, a fatal error). */
  takeAll(): ProducerBatch[] {
    const all: ProducerBatch[] = [];
    for (const q of this.queues) all.push(...q.batches.splice(0));
    return all;
  }

  /** Every batch not done yet, queued or in flight: what a flush waits for. */
  incompleteBatches(): ProducerBatch[] {
    return [...this.incomplete];
  }

  get hasIncomplete(): boolean {
    return this.incomplete.size > 0;
  }

  /** When the queue's first batch may be sent: now if full or flushed, after linger if new, after backoff if retried. */
  private sendableAt(q: PartitionQueue, head: ProducerBatch, exhausted: boolean): number {
    if (head.sent) return head.retryAt;
    const full = q.batches.length > 1 || head.isFull(this.config.batchSize);
    if (full || exhausted || this.closing || this.flushing > 0) return 0;
    return head.createdAt + this.config.lingerMs;
  }

  private track(batch: ProducerBatch): void {
    if (this.incomplete.has(batch)) return;
    this.incomplete.add(batch);
    batch.onDone(() => this.incomplete.delete(batch));
  }

  private queue(topic: string, partition: number): PartitionQueue {
    let partitions = this.byTopic.get(topic);
    if (partitions === undefined) {
      partitions = [];
      this.byTopic.set(topic, partitions);
    }
    let q = partitions[partition];
    if (q === undefined) {
      q = { topic, partition, batches: [] };
      partitions[partition] = q;
      this.queues.push(q);
    }
    return q;
  }
}
