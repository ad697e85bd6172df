/**
 * The loop behind kafkajs's `consumer.run()`: reads the core consumer's batches and calls `eachBatch` or
 * `eachMessage` with kafkajs's payloads. The core runs with `ackMode: 'explicit'`, so progress is what kafkajs's
 * rules say: a message counts as processed when `eachMessage` returns or when `resolveOffset` names it
 * (`batch.ack(record)`); what is not resolved when `eachBatch` returns is read again by the core, from the first
 * unresolved offset, which is also what a commit then stores. A throwing handler is retried from the failed offset
 * with kafkajs's backoff; after `retry.retries` the consumer crashes (`CRASH` event) and restarts unless
 * `restartOnFailure` says no.
 */
import type { ConsumerBatch, ConsumerRecord, Consumer as CoreConsumer } from '../index.js';
import { RETRY_DEFAULTS, type RetryOptions, retryDelay } from './config.js';
import type { Logger } from './constants.js';
import { KafkaJSNumberOfRetriesExceeded, toKafkaJSError } from './errors.js';
import type { Instrumentation } from './instrumentation.js';
import { type Batch, batchOf, type KafkaMessage, messageOf } from './payloads.js';

export interface EachMessagePayload {
  topic: string;
  partition: number;
  message: KafkaMessage;
  heartbeat(): Promise<void>;
  pause(): () => void;
}

export interface OffsetsByTopicPartition {
  topics: { topic: string; partitions: { partition: string; offset: string }[] }[];
}

export interface EachBatchPayload {
  batch: Batch;
  resolveOffset(offset: string): void;
  heartbeat(): Promise<void>;
  pause(): () => void;
  commitOffsetsIfNecessary(offsets?: unknown): Promise<void>;
  uncommittedOffsets(): OffsetsByTopicPartition;
  isRunning(): boolean;
  isStale(): boolean;
}

export interface ConsumerRunConfig {
  autoCommit?: boolean;
  autoCommitInterval?: number | null;
  autoCommitThreshold?: number | null;
  eachBatchAutoResolve?: boolean;
  partitionsConsumedConcurrently?: number;
  eachBatch?: (payload: EachBatchPayload) => Promise<void>;
  eachMessage?: (payload: EachMessagePayload) => Promise<void>;
}

export interface RunnerHost {
  core: CoreConsumer;
  logger: Logger;
  instrumentation: Instrumentation;
  groupId: string;
  retry: RetryOptions;
  autoCommit: boolean;
  isRunning(): boolean;
  /** Pauses a partition the way kafkajs's payload `pause()` does; returns the resume function. */
  pausePartition(topic: string, partition: number): () => void;
  /** Counts every pause of this consumer: the per-message loop looks for a pause only after one happened. */
  pauses(): number;
  crashed(error: Error, restart: boolean): Promise<void>;
}

/** Resolves after `ms`, or at once when `stopped` aborts (a stop does not wait out a retry backoff). */
const sleep = (ms: number, stopped: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (stopped.aborted) return resolve();
    const timer = setTimeout(done, ms);
    stopped.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      stopped.removeEventListener('abort', done);
      resolve();
    }
  });

/** The core's group keeps its own heartbeats going, so the payloads' `heartbeat()` has nothing to do. */
const heartbeat = async (): Promise<void> => {};

/** A handler running on a batch now: how far it resolved, and whether a stop went on without it. */
interface RunningHandler {
  batch: ConsumerBatch;
  /** Index of the first record of the batch not resolved. */
  next: number;
  /** Settles when the handler's work on the batch ends (returned, threw). */
  ended: Promise<unknown>;
  /** Set once a stop gave up waiting: what the handler resolves from then on counts for nothing. */
  givenUp: boolean;
  /** Ends the batch's processing for the consumer, while the handler itself runs on (it is the application's). */
  giveUp(): void;
}

/** A handler a stop went on without: its partition is read again from `offset`. */
export interface GivenUpHandler {
  topic: string;
  partition: number;
  offset: bigint;
}

export class Runner {
  private readonly retry: Required<Omit<RetryOptions, 'restartOnFailure'>>;
  /** The handlers running now (one, or one per partition with partitionsConsumedConcurrently). */
  private readonly running = new Set<RunningHandler>();
  /** Consecutive failures of the handler at one offset, by partition. */
  private readonly failures = new Map<string, { offset: bigint; count: number }>();
  /** Aborted by the stop (settleWithin): a retry backoff in progress ends, none starts. */
  private readonly stopped = new AbortController();

  constructor(
    private readonly host: RunnerHost,
    private readonly config: ConsumerRunConfig,
  ) {
    this.retry = { ...RETRY_DEFAULTS, ...host.retry } as Required<Omit<RetryOptions, 'restartOnFailure'>>;
  }

  /** Runs until the consumer stops (the iterator ends) or crashes without restart. */
  async loop(): Promise<void> {
    const { core } = this.host;
    const concurrency = this.config.partitionsConsumedConcurrently ?? 1;
    if (concurrency > 1) {
      // kafkajs's partitionsConsumedConcurrently is the core's bounded per-partition concurrency.
      await core.processBatches((batch) => (this.host.isRunning() ? this.process(batch) : undefined), {
        concurrency,
      });
      return;
    }
    for await (const batch of core) {
      if (!this.host.isRunning()) break;
      await this.process(batch);
    }
  }

  /**
   * After a stop (no handler starts any more, eachMessage starts no further message): waits up to `ms` for the
   * running handlers, so that what they resolve counts before the core commits on close, as kafkajs's stop
   * waits for the running batch. Those still running then are given up: their batches end for the consumer
   * (the loop, and the core's close, go on without them), what they resolve later counts for nothing, and
   * their partitions are read again from the first offset not resolved, which is returned.
   */
  async settleWithin(ms: number): Promise<GivenUpHandler[]> {
    this.stopped.abort();
    if (this.running.size === 0) return [];
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.all([...this.running].map((h) => h.ended)), timedOut]);
    clearTimeout(timer);
    const givenUp: GivenUpHandler[] = [];
    for (const h of this.running) {
      h.givenUp = true;
      h.giveUp();
      const offset = h.batch.records[h.next]?.offset ?? h.batch.nextOffset;
      givenUp.push({ topic: h.batch.topic, partition: h.batch.partition, offset });
    }
    this.running.clear();
    return givenUp;
  }

  private async process(core: ConsumerBatch): Promise<void> {
    const { host } = this;
    const batch = batchOf(core);
    const started = Date.now();
    const batchInfo = {
      topic: batch.topic,
      partition: batch.partition,
      highWatermark: batch.highWatermark,
      offsetLag: batch.offsetLag(),
      offsetLagLow: batch.offsetLagLow(),
      batchSize: core.records.length,
      firstOffset: batch.firstOffset(),
      lastOffset: batch.lastOffset(),
    };
    host.instrumentation.emit('consumer.start_batch_process', batchInfo);
    let giveUp: () => void = () => {};
    const givenUp = new Promise<'given-up'>((resolve) => {
      giveUp = () => resolve('given-up');
    });
    const handler: RunningHandler = { batch: core, next: 0, ended: Promise.resolve(), givenUp: false, giveUp };
    const work = this.handle(core, batch, handler);
    handler.ended = work.catch(() => {});
    const done = work.then(() => 'done' as const);
    // A handler given up may still throw later: nobody waits for it then.
    done.catch(() => {});
    this.running.add(handler);
    let outcome: 'done' | 'given-up';
    try {
      outcome = await Promise.race([done, givenUp]);
    } catch (err) {
      this.running.delete(handler);
      await this.failed(core, handler.next, err);
      return;
    }
    this.running.delete(handler);
    // Given up by a stop: the handler runs on, but its batch has ended here (the rest is read again).
    if (outcome === 'given-up') return;
    this.failures.delete(`${core.topic}:${core.partition}`);
    // Not all resolved (eachBatchAutoResolve false, or stopped): the core reads the rest again (explicit acks).
    host.instrumentation.emit('consumer.end_batch_process', { ...batchInfo, duration: Date.now() - started });
  }

  /** Runs the application's handler on the batch; `handler.next` follows what it resolved. */
  private async handle(core: ConsumerBatch, batch: Batch, handler: RunningHandler): Promise<void> {
    const { host } = this;
    const resolve = (record: ConsumerRecord, index: number) => {
      if (handler.givenUp || index < handler.next) return;
      core.ack(record);
      handler.next = index + 1;
    };
    if (this.config.eachMessage !== undefined) {
      // One pause function per batch, none per message: a payload is a plain object of shared parts.
      const pause = () => host.pausePartition(core.topic, core.partition);
      for (let i = 0; i < core.records.length && host.isRunning(); i++) {
        const record = core.records[i];
        const pauses = host.pauses();
        await this.config.eachMessage({
          topic: core.topic,
          partition: core.partition,
          message: messageOf(record),
          heartbeat,
          pause,
        });
        resolve(record, i);
        if (host.pauses() !== pauses && this.isPaused(core)) break;
      }
    } else if (this.config.eachBatch !== undefined) {
      // Built on the first resolveOffset: a handler that resolves nothing itself pays nothing for it.
      let byOffset: Map<string, number> | undefined;
      await this.config.eachBatch({
        batch,
        resolveOffset: (offset) => {
          byOffset ??= new Map(core.records.map((r, i) => [String(r.offset), i]));
          const i = byOffset.get(String(offset));
          if (i !== undefined) resolve(core.records[i], i);
        },
        heartbeat,
        pause: () => host.pausePartition(core.topic, core.partition),
        commitOffsetsIfNecessary: async () => {
          if (host.autoCommit) await host.core.commit();
        },
        uncommittedOffsets: () => uncommitted(host.core, core, handler.next),
        isRunning: () => host.isRunning(),
        isStale: () => !host.core.assignment().some((p) => p.topic === core.topic && p.partition === core.partition),
      });
      const last = core.records.length - 1;
      // The whole batch at once (one ack, not one per record).
      if (this.config.eachBatchAutoResolve !== false && handler.next <= last && !handler.givenUp) {
        core.ack();
        handler.next = last + 1;
      }
    }
  }

  private isPaused(core: ConsumerBatch): boolean {
    return this.host.core.paused().some((p) => p.topic === core.topic && p.partition === core.partition);
  }

  private stillOwned(core: ConsumerBatch): boolean {
    return this.host.core.assignment().some((p) => p.topic === core.topic && p.partition === core.partition);
  }

  /** The handler threw at record `index`: back off and read from there again, or crash after `retries`. */
  private async failed(core: ConsumerBatch, index: number, thrown: unknown): Promise<void> {
    const { host } = this;
    const error = toKafkaJSError(thrown) as Error;
    const offset = core.records[index]?.offset ?? core.nextOffset;
    if (this.stillOwned(core)) core_seek(host.core, core, offset);
    const key = `${core.topic}:${core.partition}`;
    const seen = this.failures.get(key);
    const count = seen !== undefined && seen.offset === offset ? seen.count + 1 : 1;
    this.failures.set(key, { offset, count });
    const delay = retryDelay(this.retry, count - 1);
    host.logger.error(`Error when calling eachMessage`, {
      topic: core.topic,
      partition: core.partition,
      offset: String(offset),
      stack: error.stack,
      error: error.message,
    });
    // Stopped: the partition is read again from the failed offset by whoever reads it next; no retry, no crash.
    if (!host.isRunning()) return;
    if (count <= this.retry.retries) {
      await sleep(delay, this.stopped.signal);
      return;
    }
    this.failures.delete(key);
    const crash = new KafkaJSNumberOfRetriesExceeded(error, { retryCount: count - 1, retryTime: delay });
    // kafkajs counts an exhausted retry as retriable, so only restartOnFailure can stop the restart.
    let restart = true;
    if (this.host.retry.restartOnFailure !== undefined) {
      restart = await this.host.retry.restartOnFailure(crash).catch(() => true);
    }
    await host.crashed(crash, restart);
    if (restart) await sleep(delay, this.stopped.signal);
  }
}

/** Moves the partition back to `offset`: read again from there, and what a commit stores until then. */
function core_seek(consumer: CoreConsumer, batch: ConsumerBatch, offset: bigint): void {
  consumer.seek({ topic: batch.topic, partition: batch.partition }, offset);
}

function uncommitted(consumer: CoreConsumer, batch: ConsumerBatch, next: number): OffsetsByTopicPartition {
  const committed = consumer.lag().find((l) => l.topic === batch.topic && l.partition === batch.partition)?.committed;
  const resolved = next > 0 ? batch.records[next - 1].offset + 1n : undefined;
  if (resolved === undefined || (committed !== undefined && committed !== null && committed >= resolved)) {
    return { topics: [] };
  }
  return {
    topics: [{ topic: batch.topic, partitions: [{ partition: String(batch.partition), offset: String(resolved) }] }],
  };
}
