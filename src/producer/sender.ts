/**
 * The producer's sender loop (Java's Sender): which batches go to which leader and when, the in-flight produce
 * requests, and the one timer for the next due moment. What each answer means for its batch (done, retried,
 * split, failed) lives in sender-outcomes.ts.
 */
import { TidemarkError } from '../../codecs/errors.js';
import { ConnectionError, ImplausibleResponseError, UnsupportedVersionError } from '../network/errors.js';
import { closeIfTimedOut } from '../network/silent-connection.js';
import type { RecordAccumulator } from './accumulator.js';
import { BATCH_OVERHEAD, type ProducerBatch } from './batch.js';
import { BrokerLinks } from './broker-links.js';
import type { BufferMemory } from './buffer-memory.js';
import type { ProduceConnection, ProducerCluster, TopicView } from './cluster-view.js';
import type { IdempotenceState } from './idempotence.js';
import { ProducerIdFetcher } from './init-producer-id.js';
import type { ResolvedProducerOptions } from './options.js';
import { buildProduceRequest, matchAnswers, Produce, produceVersionFor } from './produce-request.js';
import { BatchOutcomes } from './sender-outcomes.js';

export interface SenderParts {
  options: ResolvedProducerOptions;
  accumulator: RecordAccumulator;
  memory: BufferMemory;
  topics: TopicView;
  cluster: ProducerCluster;
  /** Present when the producer is idempotent. */
  idempotence: IdempotenceState | undefined;
  /**
   * Present when the producer is transactional: it gets the producer id (not the sender) and admits a batch
   * only once its partition is in the transaction.
   */
  transactions?: { readonly transactionalId: string; admit(batch: ProducerBatch): boolean };
}

/**
 * Moves batches from the accumulator to the brokers (Java's Sender), driven by events instead of a thread: it
 * runs when a batch fills, a linger or backoff ends, a response or connection arrives, or metadata changes.
 * Each run sends, per leader, as many requests as the in-flight limit allows, then sets one timer for the next
 * moment something becomes due. Responses decide each batch's fate: done, retried, split, or failed.
 */
export class Sender {
  private readonly o: ResolvedProducerOptions;
  private readonly links: BrokerLinks;
  private readonly producerIds: ProducerIdFetcher | undefined;
  private readonly outcomes: BatchOutcomes;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private halted = false;
  /** An error that ends the producer (the cluster refused it a producer id). */
  fatalError: Error | undefined;

  constructor(private readonly parts: SenderParts) {
    this.o = parts.options;
    this.outcomes = new BatchOutcomes(parts, this);
    this.links = new BrokerLinks(parts.cluster, this.o.maxInFlight, {
      opened: () => this.wake(),
      failed: (err) => {
        // A refusal that will not change (the client was closed, credentials rejected) fails what waits;
        // anything else is retried: the pool backs off reconnects, and leadership may have moved.
        if (err instanceof TidemarkError && !err.retriable) {
          for (const batch of parts.accumulator.takeAll()) this.failBatch(batch, err);
          return;
        }
        parts.topics.markAllStale(err);
        this.wakeAt(Date.now() + this.o.retryBackoffMs);
      },
    });
    const idempotence = parts.idempotence;
    if (idempotence !== undefined && parts.transactions === undefined) {
      this.producerIds = new ProducerIdFetcher(parts.cluster, idempotence, this.o, {
        onReady: () => this.wake(),
        onFatal: (err) => this.fail(err),
      });
    }
  }

  /** Produce requests waiting for a response, on every broker. */
  get requestsInFlight(): number {
    return this.links.totalInFlight;
  }

  /** True once `stop()` was called: a failed batch is no longer retried. */
  get stopped(): boolean {
    return this.halted;
  }

  /** Runs soon (once, however many times it is asked before it runs). */
  wake = (): void => {
    if (this.scheduled || this.halted) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  };

  /** Runs at `at` (epoch ms) unless something runs it earlier. */
  wakeAt(at: number): void {
    if (this.halted || at >= this.timerAt) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.wake();
      },
      Math.max(0, at - Date.now()),
    );
  }

  /** Stops for good: no more runs or timers. Requests already sent still settle their batches. */
  stop(): void {
    this.halted = true;
    this.producerIds?.stop();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.scheduled = false;
    if (this.halted) return;
    const { accumulator, memory, topics, idempotence } = this.parts;
    const now = Date.now();
    const fetchesIds = this.producerIds !== undefined && idempotence !== undefined;
    if (fetchesIds && (idempotence.resetWhereReady() || !idempotence.hasProducerId)) {
      this.producerIds?.fetch();
    }
    // A batch that never left because the producer has no id yet says why it has none.
    const noIdBecause = fetchesIds && !idempotence.hasProducerId ? this.producerIds?.lastError : undefined;
    for (const batch of accumulator.expire(now)) this.outcomes.expire(batch, noIdBecause);

    const exhausted = memory.exhausted;
    const ready = accumulator.ready(now, (t, p) => topics.leaderOf(t, p), exhausted);
    for (const topic of ready.unknownLeaders) topics.leaderUnknown(topic);
    for (const [node, queues] of ready.byNode) {
      for (;;) {
        const connection = this.links.sendable(node, now);
        if (connection === undefined) break;
        const batches = accumulator.drain(queues, now, this.o.maxRequestSize, exhausted, this.admit);
        if (batches.length === 0) break;
        this.send(node, connection, batches);
      }
      const throttledUntil = this.links.throttledUntil(node);
      if (throttledUntil > now) this.wakeAt(throttledUntil);
    }
    if (ready.nextCheckAt < Number.POSITIVE_INFINITY) this.wakeAt(ready.nextCheckAt);
  }

  /** Idempotence may hold a partition back; a batch that goes for the first time gets its sequence here. */
  private readonly admit = (batch: ProducerBatch): boolean => {
    if (this.parts.transactions !== undefined && !this.parts.transactions.admit(batch)) return false;
    const idempotence = this.parts.idempotence;
    if (idempotence === undefined) return true;
    if (!idempotence.canSend(batch)) return false;
    if (!batch.hasSequence) idempotence.assignSequence(batch);
    return true;
  };

  private send(node: number, connection: ProduceConnection, batches: ProducerBatch[]): void {
    const { topics } = this.parts;
    const topicId = (topic: string) => topics.topicId(topic);
    const encoded = batches.map((b) => {
      const fresh = !b.sent;
      const bytes = b.encode(b.settings?.compression ?? this.o.compression, this.o.compressionLevel);
      // Only the producer's own codec teaches the topic's ratio (a send's own settings fill by raw bytes).
      if (fresh && b.settings === undefined) {
        this.parts.accumulator.observeCompression(b.topic, b.reservedBytes, bytes.length - BATCH_OVERHEAD);
      }
      return bytes;
    });
    for (const b of batches) {
      b.outstanding = true;
      b.attempts++;
    }
    this.links.sent(node);
    let version = -1;
    let throttleTimeMs = 0;
    const transactionalId = this.parts.transactions?.transactionalId ?? null;
    // Drained with one acks (the accumulator's drain keeps them apart).
    const acks = this.parts.accumulator.acksOf(batches[0]);
    const body = buildProduceRequest(batches, encoded, acks, this.o.requestTimeoutMs, topicId, transactionalId);
    let sent: Promise<void>;
    try {
      const negotiated = connection.versionFor(Produce);
      version = produceVersionFor(negotiated, this.o.produceVersion, batches, topicId, transactionalId !== null);
      sent =
        acks === 0
          ? connection.request(Produce, body, { version, expectResponse: false }).then(() => {
              for (const b of batches) this.outcomes.onAnswer(b, undefined);
            })
          : connection.request(Produce, body, { version, timeoutMs: this.o.requestTimeoutMs }).then((response) => {
              throttleTimeMs = this.plausibleThrottle(response.throttleTimeMs, version);
              const answers = matchAnswers(response, batches, topicId);
              for (const b of batches) this.outcomes.onAnswer(b, answers.get(b));
            });
    } catch (err) {
      sent = Promise.reject(err);
    }
    sent
      .catch((err: unknown) => {
        // A silent broker would swallow every later request on this connection: the next send opens a new one.
        closeIfTimedOut(connection, err);
        if (err instanceof ConnectionError) this.parts.topics.markAllStale(err);
        // Refused before a byte was written: a definite failure. Anything else may have reached the broker.
        const unsent = err instanceof UnsupportedVersionError;
        for (const b of batches) if (b.outstanding) this.outcomes.onNoAnswer(b, err, unsent);
      })
      .finally(() => {
        this.links.settled(node, version, throttleTimeMs);
        this.wake();
      });
  }

  /**
   * A throttle time longer than the delivery timeout cannot be a quota (one flipped bit once meant 74 hours of
   * silence), and would fail every record sent meanwhile: it is capped at the longest retry backoff and
   * reported as a process warning.
   */
  private plausibleThrottle(throttleTimeMs: number, version: number): number {
    if (throttleTimeMs <= this.o.deliveryTimeoutMs) return throttleTimeMs;
    const cap = Math.min(this.o.retryBackoffMaxMs, this.o.deliveryTimeoutMs);
    const err = new ImplausibleResponseError(
      `throttle time ${throttleTimeMs} ms exceeds the delivery timeout of ${this.o.deliveryTimeoutMs} ms; capped at ${cap} ms`,
      { api: 'ProduceResponse', version, field: 'throttleTimeMs' },
    );
    process.emitWarning(err);
    return cap;
  }

  /** Fails a batch for good; its records' promises reject with `err`. */
  failBatch(batch: ProducerBatch, err: Error): void {
    this.outcomes.failBatch(batch, err);
  }

  /** Ends the producer: every queued batch fails with `err`; so will every later send. */
  private fail(err: Error): void {
    this.fatalError ??= err;
    for (const batch of this.parts.accumulator.takeAll()) this.failBatch(batch, err);
  }
}
