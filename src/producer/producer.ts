import { sleep } from '../cluster/backoff.js';
import { Cluster } from '../cluster/cluster.js';
import { Coordinators } from '../coordinator/coordinators.js';
import { TRACING_CHANNELS, traced } from '../observability/channels.js';
import { type ProducerObserver, traceSend } from '../observability/producer-send.js';
import type { ConsumerGroupMetadata } from '../offsets/group-metadata.js';
import type { OffsetCommit } from '../offsets/offset-store.js';
import { RecordAccumulator } from './accumulator.js';
import { BATCH_OVERHEAD, type DeliveryCallback, type PendingRecord, type RecordMetadata } from './batch.js';
import { BufferMemory } from './buffer-memory.js';
import { type ProducerCluster, producerClusterOf, TopicView } from './cluster-view.js';
import { ProducerClosedError } from './errors.js';
import { IdempotenceState } from './idempotence.js';
import { type ProducerOptions, type ResolvedProducerOptions, resolveProducerOptions } from './options.js';
import { RecordAppender } from './record-appender.js';
import { clearPendingRecord, newPendingRecord, type ProducerRecord, prepareRecord } from './record-input.js';
import { type RecordIntake, sendBatch, sendWithCallback } from './send-batch.js';
import { PendingRecordRefusal, refuseLater } from './send-group.js';
import { type SendOptions, SendSettings } from './send-options.js';
import { Sender } from './sender.js';
import { TransactionStateError } from './transaction-errors.js';
import { TransactionManager, type TransactionState } from './transaction-manager.js';
import { runTransaction, type TransactionalProducer } from './transaction-run.js';
import { appended, settleWaiters } from './waiting-records.js';

export interface ProducerCloseOptions {
  /**
   * How long to wait for records still on their way. Undefined: until each is delivered or fails by its own
   * delivery timeout. When it passes, what is left fails with ProducerClosedError.
   */
  timeoutMs?: number;
}

/**
 * Sends records to Kafka: batched per partition, compressed, retried, and (by default) idempotent, so a retry
 * never writes a record twice and records of a partition are written in `send()` order.
 *
 * `send()` resolves once the broker has acknowledged the record, with where it was written. It takes the
 * record at once while the buffer has room; when it has none (or the topic's metadata is not known yet) the
 * record waits, with every later one behind it, for up to `maxBlockMs`. `backpressure` tells when that is
 * happening and `waitForCapacity()` waits until it is over, for callers that do not await each send.
 */
export class Producer {
  readonly options: Readonly<ResolvedProducerOptions>;
  private readonly accumulator: RecordAccumulator;
  private readonly memory: BufferMemory;
  private readonly topics: TopicView;
  private readonly idempotence: IdempotenceState | undefined;
  private readonly sender: Sender;
  /** Present when the producer is transactional (`transactionalId`). */
  private readonly transactions: TransactionManager | undefined;
  private readonly maxRecordSize: number;
  private readonly appender: RecordAppender;
  private readonly capacityWaiters: (() => void)[] = [];
  private closing = false;
  private closed: Promise<void> | undefined;
  private readonly observer: ProducerObserver | undefined;
  private readonly sendSettings: SendSettings;
  /** What sendBatch (send-batch.ts) uses of this producer. */
  private readonly intake: RecordIntake;

  constructor(
    cluster: Cluster | ProducerCluster,
    options: ProducerOptions = {},
    defaults: { requestTimeoutMs?: number; observer?: ProducerObserver } = {},
  ) {
    this.observer = defaults.observer;
    this.intake = {
      observer: this.observer,
      prepare: (record, options, now) => this.prepare(record, options, now),
      submit: (pending, now) => this.submit(pending, now),
      send: (record, options) => this.send(record, options),
    };
    this.options = resolveProducerOptions(options, defaults.requestTimeoutMs);
    const o = this.options;
    const view = cluster instanceof Cluster ? producerClusterOf(cluster) : cluster;
    this.accumulator = new RecordAccumulator(o);
    this.sendSettings = new SendSettings(o);
    this.memory = new BufferMemory(o.bufferMemory, () => this.releaseCapacityWaiters());
    this.idempotence = o.idempotent ? new IdempotenceState() : undefined;
    this.maxRecordSize = Math.min(o.maxRequestSize - BATCH_OVERHEAD, o.bufferMemory);
    let sender: Sender | undefined;
    this.topics = new TopicView(view, () => sender?.wake(), o.retryBackoffMs);
    this.transactions = this.transactionManager(cluster, () => sender?.wake());
    sender = new Sender({
      options: o,
      accumulator: this.accumulator,
      memory: this.memory,
      topics: this.topics,
      cluster: view,
      idempotence: this.idempotence,
      transactions: this.transactions,
    });
    this.sender = sender;
    this.appender = new RecordAppender({
      options: o,
      topics: this.topics,
      memory: this.memory,
      accumulator: this.accumulator,
      sender,
      transactions: this.transactions,
      onWaitingDrained: () => this.releaseCapacityWaiters(),
    });
    // Idempotent producers fetch their id up front, so the first batch does not wait for it.
    if (this.idempotence !== undefined && this.transactions === undefined) sender.wake();
  }

  /**
   * Sends a record; resolves when the broker has it (per `acks`), rejects with a typed error if it never will.
   * `options` may give this record its own `acks` and `compression` (send-options.ts); records of a partition
   * keep their `send()` order whatever their settings.
   */
  send(record: ProducerRecord, options?: SendOptions): Promise<RecordMetadata>;
  /**
   * The same, answered through `callback` instead of a promise (as the Java client's `send(record, callback)`):
   * called once, on a later turn of the event loop, with the error or with where the record was written. No
   * promise per record, so it costs less CPU than `send()` for an application that does not await each record.
   */
  send(record: ProducerRecord, callback: DeliveryCallback): void;
  send(record: ProducerRecord, options: SendOptions | undefined, callback: DeliveryCallback): void;
  send(
    record: ProducerRecord,
    optionsOrCallback?: SendOptions | DeliveryCallback,
    callback?: DeliveryCallback,
  ): Promise<RecordMetadata> | undefined {
    const options = typeof optionsOrCallback === 'function' ? undefined : optionsOrCallback;
    const onDelivery = typeof optionsOrCallback === 'function' ? optionsOrCallback : callback;
    if (onDelivery !== undefined) {
      sendWithCallback(this.intake, record, options, onDelivery, traced(TRACING_CHANNELS.producerSend));
      return undefined;
    }
    this.observer?.onSend(1);
    // Untraced (the usual case) without the closure traceSend takes: one allocation less per record.
    if (!traced(TRACING_CHANNELS.producerSend)) return this.sendRecord(record, options);
    return traceSend(record, this.observer?.clientId ?? 'tidemark', (r) => this.sendRecord(r, options));
  }

  /**
   * Sends `records` in the order given (each as `send()` would, with the same checks, batching and ordering)
   * under one promise: it resolves once every record is acknowledged, with where each was written (in the
   * same order), or rejects with the first failure to come back once every record has its answer. No promise per record,
   * so it costs less CPU per record than a `send()` each. `backpressure` applies as for `send()`.
   */
  sendBatch(records: readonly ProducerRecord[], options?: SendOptions): Promise<RecordMetadata[]> {
    return sendBatch(this.intake, records, options, traced(TRACING_CHANNELS.producerSend));
  }

  private sendRecord(record: ProducerRecord, options: SendOptions | undefined): Promise<RecordMetadata> {
    const now = Date.now();
    const pending = this.prepare(record, options, now);
    if (pending instanceof PendingRecordRefusal) return refuseLater(pending.err);
    // The shared executor puts the promise's settlers on `pending`: no closure per record.
    this.settling = pending;
    const promise = new Promise<RecordMetadata>(this.attachSettlers);
    this.submit(pending, now);
    return promise;
  }

  /**
   * The one PendingRecord that prepare() fills for each record (unless it is in use: a partitioner that sends
   * from inside an append): a record appended at once is written into its batch there and then, so a
   * PendingRecord of its own per `send()` would only be garbage, and garbage is what makes the collector run
   * (each run copies every record in flight). A record that has to wait gets a copy of its own (RecordAppender).
   */
  private readonly reused = newPendingRecord();
  private reusedBusy = false;

  /** Hands a prepared record (settlers attached) to the appender; frees the reused one afterwards. */
  private submit(pending: PendingRecord, now: number): void {
    if (pending !== this.reused) {
      this.appender.submit(pending, now, false);
      return;
    }
    this.reusedBusy = true;
    try {
      this.appender.submit(pending, now, true);
    } finally {
      this.reusedBusy = false;
      clearPendingRecord(pending);
    }
  }

  /** The record checked and converted, or why this producer does not take it now. */
  private prepare(
    record: ProducerRecord,
    options: SendOptions | undefined,
    now: number,
  ): PendingRecord | PendingRecordRefusal {
    if (this.closing) return new PendingRecordRefusal(new ProducerClosedError('send() was called after close()'));
    if (this.sender.fatalError !== undefined) return new PendingRecordRefusal(this.sender.fatalError);
    const refused = this.transactions?.sendError();
    if (refused !== undefined) return new PendingRecordRefusal(refused);
    try {
      const pending = prepareRecord(record, now, this.maxRecordSize, this.reusedBusy ? undefined : this.reused);
      const settings = this.sendSettings.resolve(options);
      if (settings !== undefined) pending.settings = settings;
      return pending;
    } catch (err) {
      return new PendingRecordRefusal(err);
    }
  }

  /** The record whose promise is being created (sendRecord), for attachSettlers. */
  private settling: PendingRecord | undefined;

  private readonly attachSettlers = (
    resolve: (metadata: RecordMetadata) => void,
    reject: (err: Error) => void,
  ): void => {
    const pending = this.settling as PendingRecord;
    this.settling = undefined;
    pending.resolve = resolve;
    pending.reject = reject;
  };

  /**
   * Transactional producers: gets the producer id and epoch for `transactionalId`, fencing any older producer
   * with the same id (its open transaction is aborted). Call once, before the first transaction.
   */
  initTransactions(): Promise<void> {
    return this.requireTransactions('initTransactions()').init();
  }

  /** Opens a transaction: records sent from now on commit or abort together. */
  beginTransaction(): void {
    this.requireTransactions('beginTransaction()').begin();
  }

  /**
   * Adds a consumer's offsets (the next offset to read per partition) to the open transaction: they become the
   * group's committed offsets if, and only if, the transaction commits. `group` is `consumer.groupMetadata()`;
   * the group coordinator fences a member that is no longer in the group (KIP-447).
   */
  sendOffsetsToTransaction(offsets: readonly OffsetCommit[], group: ConsumerGroupMetadata): Promise<void> {
    return this.requireTransactions('sendOffsetsToTransaction()').sendOffsets(offsets, group);
  }

  /** Delivers every record of the transaction, then commits it. An abortable failure: abortTransaction(). */
  commitTransaction(): Promise<void> {
    return this.requireTransactions('commitTransaction()').commit();
  }

  /** Drops what is not yet sent and aborts the transaction: none of its records becomes visible. */
  abortTransaction(): Promise<void> {
    return this.requireTransactions('abortTransaction()').abort();
  }

  /** Runs `work` in a transaction: commits when it returns, aborts (and rethrows) when it throws. */
  transaction<T>(work: (tx: TransactionalProducer) => Promise<T>): Promise<T> {
    return runTransaction(this, work);
  }

  /** The transaction state (undefined for a producer without `transactionalId`). */
  get transactionState(): TransactionState | undefined {
    return this.transactions?.state;
  }

  /** Sends everything accepted so far without lingering; resolves when each of it is delivered or has failed. */
  async flush(): Promise<void> {
    const last = this.appender.waiting.last();
    if (last !== undefined) await appended(last);
    const batches = this.accumulator.incompleteBatches();
    if (batches.length === 0) return;
    this.accumulator.flushing++;
    this.sender.wake();
    try {
      await Promise.all(batches.map((b) => new Promise<void>((resolve) => b.onDone(resolve))));
    } finally {
      this.accumulator.flushing--;
    }
  }

  /**
   * Stops taking records, sends what it holds, and resolves once every record has its answer (or the timeout
   * has failed the rest with ProducerClosedError). Nothing acknowledged is lost; nothing is failed that was not.
   */
  close(options: ProducerCloseOptions = {}): Promise<void> {
    this.closed ??= this.shutDown(options.timeoutMs);
    return this.closed;
  }

  /**
   * The producer holds `highWaterMark` bytes or more, or records are waiting for buffer room: a caller that does
   * not await each `send()` should pause (`await waitForCapacity()`) so the buffer does not only grow.
   */
  get backpressure(): boolean {
    return this.appender.waiting.length > 0 || this.memory.usedBytes >= this.options.highWaterMark;
  }

  /**
   * Resolves once the buffer is down to half the high-water mark with no record waiting (or the producer is
   * closing). Half, so that a paused loop resumes for a stretch of sends, not for one record at a time.
   */
  waitForCapacity(): Promise<void> {
    if (!this.backpressure || this.closing) return Promise.resolve();
    return new Promise((resolve) => this.capacityWaiters.push(resolve));
  }

  private releaseCapacityWaiters(): void {
    if (this.capacityWaiters.length === 0) return;
    const low = this.appender.waiting.length === 0 && this.memory.usedBytes <= this.options.highWaterMark / 2;
    if (!low && !this.closing) return;
    for (const resolve of this.capacityWaiters.splice(0)) resolve();
  }

  /** Bytes of records accepted and not yet acknowledged. */
  get bufferedBytes(): number {
    return this.memory.usedBytes;
  }

  /** The idempotent producer's id and epoch; undefined before it has one, or when not idempotent. */
  get producerIdAndEpoch(): { producerId: bigint; epoch: number } | undefined {
    const s = this.idempotence;
    return s?.hasProducerId ? { producerId: s.producerId, epoch: s.epoch } : undefined;
  }

  private requireTransactions(call: string): TransactionManager {
    if (this.transactions === undefined) {
      throw new TransactionStateError(`${call} needs a producer with a transactionalId`, undefined);
    }
    return this.transactions;
  }

  private transactionManager(cluster: Cluster | ProducerCluster, wake: () => void): TransactionManager | undefined {
    const id = this.options.transactionalId;
    if (id === undefined || this.idempotence === undefined) return undefined;
    if (!(cluster instanceof Cluster)) throw new TransactionStateError('transactions need a Cluster', id);
    const coordinators = new Coordinators(cluster, { requestTimeoutMs: this.options.requestTimeoutMs });
    return new TransactionManager(id, this.options, coordinators, this.idempotence, {
      flush: () => this.flush(),
      abortUnsent: (err) => this.abortUnsent(err),
      wakeSender: wake,
    });
  }

  /** Fails every record not yet sent with `err` (waiting, queued or held back), and waits out those in flight. */
  private async abortUnsent(err: Error): Promise<void> {
    for (;;) {
      for (const w of this.appender.waiting.takeAll()) {
        this.appender.reject(w.record, err);
        settleWaiters(w);
      }
      for (const batch of this.accumulator.takeAll()) this.sender.failBatch(batch, err);
      const left = this.accumulator.incompleteBatches();
      if (left.length === 0) return;
      // A batch in flight may come back to be retried: the next round fails it from the queue.
      await Promise.race([Promise.all(left.map((b) => new Promise<void>((r) => b.onDone(r)))), sleep(50)]);
    }
  }

  private async shutDown(timeoutMs: number | undefined): Promise<void> {
    this.closing = true;
    this.releaseCapacityWaiters();
    this.accumulator.closing = true;
    this.sender.wake();
    const delivered = this.deliverAll();
    if (timeoutMs === undefined) await delivered;
    else {
      const cancel = new AbortController();
      const inTime = await Promise.race([
        delivered.then(() => true),
        sleep(timeoutMs, cancel.signal).then(
          () => false,
          () => true,
        ),
      ]);
      cancel.abort();
      if (!inTime) this.abandonAll();
    }
    this.sender.stop();
  }

  /** Waits until no record is waiting, queued or in flight. */
  private async deliverAll(): Promise<void> {
    while (this.appender.waiting.length > 0 || this.accumulator.hasIncomplete) await this.flush();
  }

  /** A close ran out of time: everything still pending fails with ProducerClosedError. */
  private abandonAll(): void {
    const err = new ProducerClosedError('the producer was closed before the record was delivered');
    this.appender.abandoned = err;
    this.memory.abortWaiters(err);
    for (const batch of this.accumulator.takeAll()) this.sender.failBatch(batch, err);
    for (const batch of this.accumulator.incompleteBatches()) {
      const maybe = batch.outstanding || batch.mayHaveBeenWritten;
      this.sender.failBatch(batch, maybe ? new ProducerClosedError(err.message, true) : err);
    }
  }
}
