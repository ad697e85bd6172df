/**
 * What happens to a produce batch once its request is answered, fails, or its time runs out (the response half
 * of Java's Sender): done, retried with backoff, split in two, or failed for good. The sender (sender.ts) owns
 * scheduling and the in-flight requests; this module owns every batch's fate and the memory and idempotence
 * bookkeeping that goes with it.
 */
import { ProtocolError, TidemarkError } from '../../codecs/errors.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import { backoffDelay } from '../cluster/backoff.js';
import { isStaleMetadataCode } from '../cluster/metadata.js';
import { ImplausibleResponseError } from '../network/errors.js';
import type { RecordAccumulator } from './accumulator.js';
import type { ProducerBatch } from './batch.js';
import type { BufferMemory } from './buffer-memory.js';
import type { TopicView } from './cluster-view.js';
import { DeliveryTimeoutError, DeliveryUncertainError } from './errors.js';
import type { IdempotenceState } from './idempotence.js';
import type { ResolvedProducerOptions } from './options.js';
import type { PartitionAnswer } from './produce-request.js';

/** What deciding a batch's fate needs from the producer. */
export interface OutcomeParts {
  options: ResolvedProducerOptions;
  accumulator: RecordAccumulator;
  memory: BufferMemory;
  topics: TopicView;
  idempotence: IdempotenceState | undefined;
}

/** The sender's scheduling, as the outcomes see it: a retried batch asks for a run when its backoff ends. */
export interface OutcomeScheduler {
  readonly stopped: boolean;
  wake(): void;
  wakeAt(at: number): void;
}

/** Decides each batch's fate from its partition's answer or from the failure of its request. */
export class BatchOutcomes {
  private readonly o: ResolvedProducerOptions;

  constructor(
    private readonly parts: OutcomeParts,
    private readonly scheduler: OutcomeScheduler,
  ) {
    this.o = parts.options;
  }

  /** A partition's answer (undefined: acks 0, where the write itself is all there is). */
  onAnswer(batch: ProducerBatch, answer: PartitionAnswer | undefined): void {
    batch.outstanding = false;
    batch.outcomeUnknown = false;
    if (batch.done) return;
    if (answer === undefined) {
      if ((batch.settings?.acks ?? this.o.acks) === 0) this.complete(batch, -1n, -1n);
      else this.onError(batch, new TidemarkError('the broker did not answer for this partition', { retriable: true }));
      return;
    }
    const code = answer.errorCode;
    if (code === ErrorCode.NONE || code === ErrorCode.DUPLICATE_SEQUENCE_NUMBER) {
      const implausible = implausibleAck(batch, answer);
      if (implausible !== undefined) this.onNoAnswer(batch, implausible, false);
      else this.complete(batch, answer.baseOffset, answer.logAppendTimeMs);
      return;
    }
    const err = new KafkaError(code, {
      message: answer.errorMessage ?? recordErrorText(answer),
      context: { api: 'Produce', topic: batch.topic, partition: batch.partition },
    });
    if (code === ErrorCode.MESSAGE_TOO_LARGE && batch.recordCount > 1) {
      this.split(batch);
      return;
    }
    if (isStaleMetadataCode(code)) this.parts.topics.markStale(batch.topic, err);
    const idempotence = this.parts.idempotence;
    const sequenceError = code === ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER || code === ErrorCode.UNKNOWN_PRODUCER_ID;
    if (idempotence !== undefined && sequenceError && batch.hasSequence) {
      idempotence.onSequenceError(batch, code === ErrorCode.UNKNOWN_PRODUCER_ID);
      this.retryOrFail(batch, err, true);
      return;
    }
    this.retryOrFail(batch, err, err.retriable);
  }

  /** The request failed as a whole (connection lost, timed out): the broker may or may not have the batch. */
  onNoAnswer(batch: ProducerBatch, err: unknown, unsent: boolean): void {
    batch.outstanding = false;
    batch.outcomeUnknown = !unsent;
    if (!unsent) batch.mayHaveBeenWritten = true;
    if (batch.done) return;
    if (err instanceof ProtocolError && !unsent) {
      // An answer came but cannot be trusted: the broker may have appended the batch. Idempotence makes a
      // resend safe (the broker recognises the sequence and answers with the original offset); without it a
      // resend could write the records twice, so the caller hears that they may have been written.
      if (this.parts.idempotence !== undefined) this.retryOrFail(batch, err, true);
      else this.failBatch(batch, new DeliveryUncertainError(batch.topic, batch.partition, err));
      return;
    }
    this.onError(batch, err);
  }

  /** A queued batch outlived the delivery timeout; `waitedFor` is why it could not be sent, if nothing it sent failed. */
  expire(batch: ProducerBatch, waitedFor?: unknown): void {
    this.failBatch(batch, this.timeoutError(batch, batch.lastError ?? waitedFor));
  }

  /** Fails a batch for good; its records' promises reject with `err`. */
  failBatch(batch: ProducerBatch, err: Error): void {
    if (batch.done) return;
    this.parts.idempotence?.onFailed(batch);
    this.parts.memory.release(batch.reservedBytes);
    batch.fail(err);
  }

  private onError(batch: ProducerBatch, err: unknown): void {
    this.retryOrFail(batch, err, err instanceof TidemarkError && err.retriable);
  }

  /** Retries within the delivery timeout and the retry count; otherwise the batch fails with `err`. */
  private retryOrFail(batch: ProducerBatch, err: unknown, retriable: boolean): void {
    batch.lastError = err;
    const now = Date.now();
    const inTime = now - batch.createdAt < this.o.deliveryTimeoutMs;
    if (retriable && inTime && batch.attempts <= this.o.retries && !this.scheduler.stopped) {
      batch.retryAt =
        now +
        backoffDelay(batch.attempts, {
          initialMs: this.o.retryBackoffMs,
          maxMs: this.o.retryBackoffMaxMs,
        });
      this.parts.accumulator.reenqueue(batch);
      this.scheduler.wakeAt(batch.retryAt);
      return;
    }
    if (retriable && !inTime) this.failBatch(batch, this.timeoutError(batch, err));
    else if (err instanceof ProtocolError && batch.mayHaveBeenWritten) {
      this.failBatch(batch, new DeliveryUncertainError(batch.topic, batch.partition, err));
    } else this.failBatch(batch, asError(err));
  }

  private split(batch: ProducerBatch): void {
    const halves = batch.split();
    this.parts.idempotence?.onSplit(batch, halves);
    // Halves go back in reverse so that the first half ends up first.
    for (const half of halves.reverse()) this.parts.accumulator.reenqueue(half);
    this.scheduler.wake();
  }

  private timeoutError(batch: ProducerBatch, lastError: unknown): DeliveryTimeoutError {
    return new DeliveryTimeoutError(
      batch.topic,
      batch.partition,
      this.o.deliveryTimeoutMs,
      batch.mayHaveBeenWritten,
      lastError,
    );
  }

  private complete(batch: ProducerBatch, baseOffset: bigint, logAppendTime: bigint): void {
    this.parts.idempotence?.onAppended(batch);
    this.parts.memory.release(batch.reservedBytes);
    batch.complete(baseOffset, logAppendTime);
  }
}

/** Offsets no broker acknowledges an append with: below -1, -1 for a fresh append, or past the int64 range. */
function implausibleAck(batch: ProducerBatch, answer: PartitionAnswer): ImplausibleResponseError | undefined {
  const { baseOffset, logStartOffset } = answer;
  const fresh = answer.errorCode === ErrorCode.NONE;
  let problem: string | undefined;
  if (baseOffset < -1n || (fresh && baseOffset < 0n)) problem = `base offset ${baseOffset} is negative`;
  else if (baseOffset + BigInt(batch.recordCount) > INT64_MAX) problem = `base offset ${baseOffset} overflows`;
  else if (fresh && logStartOffset > baseOffset) {
    problem = `base offset ${baseOffset} lies below the log start offset ${logStartOffset}`;
  }
  if (problem === undefined) return undefined;
  return new ImplausibleResponseError(`acknowledgement for ${batch.topic}-${batch.partition}: ${problem}`, {
    api: 'ProduceResponse',
    field: 'baseOffset',
  });
}

const INT64_MAX = 0x7fffffffffffffffn;

function recordErrorText(answer: PartitionAnswer): string | null {
  if (answer.recordErrors.length === 0) return null;
  return answer.recordErrors.map((e) => `record ${e.batchIndex}: ${e.message ?? 'invalid'}`).join('; ');
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new TidemarkError(String(err));
}
