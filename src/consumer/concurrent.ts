/**
 * Bounded per-partition concurrency: `consumer.processBatches(handler, { concurrency })`. One lane per
 * partition runs the handler on that partition's batches one after another (order kept within a partition);
 * at most `concurrency` lanes run at once. A batch counts as processed only when its handler returned (under
 * `ackMode: 'explicit'`, only what it acknowledged), so commits store nothing a handler has not finished, and a
 * revoke waits for the handlers of revoked partitions before it commits them (docs/ARCHITECTURE.md, "The offset
 * contract"). The batches come from the consumer's one delivery cursor, detached from it as they arrive, as
 * franz-go and Java users build it by hand (a worker per partition fed from one poll loop). A lane with a few
 * batches waiting stops its partition's fetching until it works them off, so a slow partition holds its own
 * bytes of the one fetch budget, never the other lanes' progress. Stopping (the signal, a close, a handler's
 * error) ends each lane at its next batch boundary: the batches not started go back to be read again, and a
 * close waits for the running handlers before it commits (consumer.ts, `close()`).
 */
import { ConfigError } from '../options/config-error.js';
import type { ConsumerBatch } from './consumer-record.js';
import type { DeliveredBatch } from './delivered-batch.js';
import type { Delivery } from './delivery.js';
import type { PartitionState, Positions } from './positions.js';
import { BatchIterator } from './records-iterator.js';

/** Processes one partition's batch; the batch counts as processed when the returned promise resolves. */
export type BatchHandler = (batch: ConsumerBatch) => Promise<void> | void;

/** Options of `consumer.processBatches()`. */
export interface ProcessBatchesOptions {
  /** How many partitions' handlers may run at once (default 1). Batches of one partition never overlap. */
  concurrency?: number;
  /**
   * Stops every partition at its next batch boundary (as a close does): no batch starts after the abort, the
   * call resolves once the handlers running then have returned, and batches not started are read again.
   */
  signal?: AbortSignal;
  /**
   * A handler threw (or rejected). The batch is not processed: its partition goes back to the batch's first
   * record not processed, while the other partitions go on. Resolving reads the partition again from there
   * (its lane waits for this promise: put a backoff here); throwing stops processing with that error. Without
   * `onError` a handler's error stops processing.
   */
  onError?: (error: unknown, batch: ConsumerBatch) => Promise<void> | void;
}

/**
 * Batches fetched ahead and waiting in one lane before its partition is fetched no further. Per lane, so a slow
 * partition holds back its own fetching (and at most these bytes of the one budget), never the others' progress.
 */
const WAITING_PER_LANE = 4;

/** One partition's batches: at most one running, the rest waiting in order. */
interface Lane {
  state: PartitionState;
  waiting: DeliveredBatch[];
  running: boolean;
}

export async function processBatches(
  delivery: Delivery,
  positions: Positions,
  handler: BatchHandler,
  options: ProcessBatchesOptions = {},
): Promise<void> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConfigError('concurrency', `must be a positive integer, got ${concurrency}`);
  }
  const run = new ConcurrentRun(delivery, positions, handler, options, concurrency);
  return run.start();
}

class ConcurrentRun {
  private readonly lanes = new Map<PartitionState, Lane>();
  /** Lanes with a batch waiting and none running, in the order they became ready. */
  private ready: Lane[] = [];
  private running = 0;
  private failure: { error: unknown } | undefined;
  /** Wakes the drain: a lane gave up its slot. */
  private wake: (() => void) | undefined;
  /** Stops the cursor's wait for the next batch when processing failed. */
  private readonly stop = new AbortController();

  constructor(
    private readonly delivery: Delivery,
    private readonly positions: Positions,
    private readonly handler: BatchHandler,
    private readonly options: ProcessBatchesOptions,
    private readonly concurrency: number,
  ) {}

  async start(): Promise<void> {
    const signals = [this.stop.signal, ...(this.options.signal === undefined ? [] : [this.options.signal])];
    const batches = new BatchIterator(this.delivery, AbortSignal.any(signals));
    try {
      while (!this.stopping) {
        const batch = await batches.nextBatch();
        if (batch === undefined) break;
        // Taken out of the cursor, unless a close gave it up in between (it settled it already).
        if (this.delivery.detach() === batch) this.enqueue(batch);
      }
    } catch (err) {
      // The cursor's errors (a failed partition, the group) stop processing; a stop request ends it quietly.
      if (!this.stop.signal.aborted && !this.options.signal?.aborted) this.fail(err);
    } finally {
      await batches.return();
    }
    await this.drain();
    if (this.failure !== undefined) throw this.failure.error;
  }

  private enqueue(batch: DeliveredBatch): void {
    let lane = this.lanes.get(batch.state);
    if (lane === undefined) {
      lane = { state: batch.state, waiting: [], running: false };
      this.lanes.set(batch.state, lane);
    }
    lane.waiting.push(batch);
    this.holdFetching(lane);
    if (!lane.running && lane.waiting.length === 1) this.ready.push(lane);
    this.dispatch();
  }

  /**
   * Whether no batch may start any more: processing failed, the signal aborted, or the consumer is closing (its
   * close waits for the running handlers, then commits what they finished). Each lane stops at its next batch
   * boundary; the batches it has not started are read again.
   */
  private get stopping(): boolean {
    return this.failure !== undefined || this.options.signal?.aborted === true || this.delivery.closed;
  }

  /** A lane with enough batches waiting stops its partition's fetching until it works them off. */
  private holdFetching(lane: Lane): void {
    this.delivery.holdFetching(lane.state, lane.waiting.length >= WAITING_PER_LANE);
  }

  /** Starts ready lanes while there is room. */
  private dispatch(): void {
    while (this.running < this.concurrency && this.ready.length > 0 && !this.stopping) {
      const lane = this.ready.shift() as Lane;
      lane.running = true;
      this.running++;
      void this.runLane(lane);
    }
  }

  /** Runs the lane's waiting batches in order until none is left or another lane waits, then gives up its slot. */
  private async runLane(lane: Lane): Promise<void> {
    while (!this.stopping) {
      const batch = lane.waiting.shift();
      if (batch === undefined) break;
      this.holdFetching(lane);
      if (!this.usable(batch)) {
        // Sought away from, revoked or paused since it was fetched: not handed out; a paused partition goes
        // back to it, so nothing is skipped.
        this.voidLane(lane, this.delivery.settle(batch, batch.state.paused ? 'unprocessed' : 'void'));
        continue;
      }
      this.delivery.track(batch);
      try {
        await this.handler(batch);
      } catch (error) {
        this.voidLane(lane, this.delivery.settle(batch, 'unprocessed'));
        await this.handlerFailed(error, batch);
        continue;
      }
      this.voidLane(lane, this.delivery.settle(batch, 'processed'));
      // Other lanes wait for a slot: take turns a batch at a time, so a busy partition does not keep the slot.
      if (this.ready.length > 0) break;
    }
    lane.running = false;
    this.running--;
    if (lane.waiting.length === 0) this.lanes.delete(lane.state);
    else if (!this.stopping) this.ready.push(lane);
    this.dispatch();
    this.notify();
  }

  /** The partition went back: the batches still waiting in its lane come again from the fetcher. */
  private voidLane(lane: Lane, rewound: boolean): void {
    if (!rewound) return;
    for (const batch of lane.waiting.splice(0)) this.delivery.settle(batch, 'void');
    this.holdFetching(lane);
  }

  private async handlerFailed(error: unknown, batch: ConsumerBatch): Promise<void> {
    const { onError } = this.options;
    if (onError === undefined) {
      this.fail(error);
      return;
    }
    try {
      await onError(error, batch);
    } catch (stopWith) {
      this.fail(stopWith);
    }
  }

  /** Whether a fetched batch still means something to hand out. */
  private usable(batch: DeliveredBatch): boolean {
    const s = batch.state;
    return batch.current && this.positions.get(s.topic, s.partition) === s && s.phase !== 'revoking' && !s.paused;
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
    this.stop.abort(error);
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Waits for the running handlers, then gives back every batch still waiting (read again later). */
  private async drain(): Promise<void> {
    while (this.running > 0) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    for (const lane of this.lanes.values()) {
      // The first batch the partition still means to read sends it back; the ones behind it are void then.
      let back = false;
      for (const batch of lane.waiting.splice(0))
        back = this.delivery.settle(batch, back ? 'void' : 'unprocessed') || back;
      this.holdFetching(lane);
    }
    this.lanes.clear();
  }
}
