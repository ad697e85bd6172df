import { INT16_MAX, INT32_MAX } from '../../codecs/limits.js';
import { NO_PRODUCER_EPOCH, NO_PRODUCER_ID } from '../../codecs/records/types.js';
import { partitionKey } from '../cluster/partition-errors.js';
import type { ProducerBatch } from './batch.js';

/** Java's `DefaultRecordBatch.incrementSequence`: sequences wrap from 2^31-1 to 0. */
export function incrementSequence(sequence: number, increment: number): number {
  return sequence > INT32_MAX - increment ? increment - (INT32_MAX - sequence) - 1 : sequence + increment;
}

/** One partition's sequence numbers, valid for the producer id and epoch they were counted under. */
interface PartitionSequences {
  producerId: bigint;
  epoch: number;
  nextSequence: number;
  /** Batches given sequences and not done, in sequence order: sent, or queued to be sent again. */
  inFlight: ProducerBatch[];
  /**
   * A batch that used sequence numbers failed for good, or the broker lost track of them: the partition must
   * start over at sequence 0 under a new epoch before anything new is sent to it.
   */
  needsReset: boolean;
  /**
   * The broker has acknowledged a batch under these sequences. Until then one batch at a time: a broker that
   * holds no state for a producer accepts any first sequence, so a later batch arriving while the first one is
   * turned away (a new topic's leader not yet elected) would be appended ahead of it.
   */
  confirmed: boolean;
}

/**
 * Idempotence bookkeeping (the non-transactional half of Java's TransactionManager): the producer id and epoch,
 * and per partition the next sequence number and the batches that hold sequences.
 *
 * The broker appends a batch only if its first sequence follows the last one it appended for this producer and
 * partition, and answers a resend of one of the last five batches with the original offsets. So: a batch is
 * given its sequence at its first send and keeps it for every retry; a retried batch goes again only once all
 * batches before it are done (retries leave in sequence order); and when a gap can no longer be closed (a batch
 * failed for good, or the broker forgot the producer) the epoch is bumped and the partition's sequences restart
 * at 0, which the broker accepts for a new epoch. Epochs are bumped locally, as Java does for idempotent
 * producers; an exhausted epoch asks for a new producer id.
 *
 * Unlike Java, a reset waits until the first held batch has a definite answer: a batch whose last attempt got no
 * answer is first sent again under its old sequence, so that if the broker did append it, it is recognised as a
 * duplicate instead of being written a second time under the new epoch.
 */
export class IdempotenceState {
  producerId = NO_PRODUCER_ID;
  epoch = NO_PRODUCER_EPOCH;
  private readonly partitions = new Map<string, PartitionSequences>();

  get hasProducerId(): boolean {
    return this.producerId !== NO_PRODUCER_ID;
  }

  setProducerId(producerId: bigint, epoch: number): void {
    this.producerId = producerId;
    this.epoch = epoch;
  }

  /** Whether `batch`, first in its partition's queue, may be sent now. */
  canSend(batch: ProducerBatch): boolean {
    if (!this.hasProducerId) return false;
    const p = this.entry(batch);
    if (batch.hasSequence) {
      // A retry: only once everything before it is done; during a reset only to learn a lost answer.
      if (p.inFlight[0] !== batch) return false;
      return !p.needsReset || batch.outcomeUnknown;
    }
    if (p.needsReset) return false;
    if (p.producerId !== this.producerId || p.epoch !== this.epoch) {
      // Sequences counted under an older epoch: start over once the batches that carry them are done.
      if (p.inFlight.length > 0) return false;
      this.restart(p, 0);
    }
    return p.confirmed || p.inFlight.length === 0;
  }

  /** Gives a batch about to be sent for the first time the partition's next sequence numbers. */
  assignSequence(batch: ProducerBatch): void {
    const p = this.entry(batch);
    batch.setProducerState(p.producerId, p.epoch, p.nextSequence);
    p.nextSequence = incrementSequence(p.nextSequence, batch.recordCount);
    p.inFlight.push(batch);
  }

  /** The broker appended the batch (or recognised it as a duplicate). */
  onAppended(batch: ProducerBatch): void {
    if (!batch.hasSequence) return;
    this.remove(batch);
    const p = this.entry(batch);
    if (batch.producerId === p.producerId && batch.producerEpoch === p.epoch) p.confirmed = true;
  }

  /** The batch failed for good after using sequence numbers: the gap it leaves can only be closed by a reset. */
  onFailed(batch: ProducerBatch): void {
    if (!batch.hasSequence) return;
    this.remove(batch);
    this.entry(batch).needsReset = true;
  }

  /**
   * OUT_OF_ORDER_SEQUENCE_NUMBER or UNKNOWN_PRODUCER_ID. For a batch that is not first in line the error only
   * echoes an earlier batch's failure, and an in-order retry fixes it; for the first one the broker's idea of the
   * sequence really differs (a lost batch, expired producer state), so the partition is reset. The batch is
   * retried either way.
   */
  onSequenceError(batch: ProducerBatch, unknownProducer: boolean): void {
    const p = this.entry(batch);
    if (unknownProducer || p.inFlight[0] === batch) p.needsReset = true;
  }

  /** A batch split after MESSAGE_TOO_LARGE: its halves take its place and its sequence range. */
  onSplit(batch: ProducerBatch, halves: readonly ProducerBatch[]): void {
    if (!batch.hasSequence) return;
    const p = this.entry(batch);
    const i = p.inFlight.indexOf(batch);
    let sequence = batch.baseSequence;
    for (const half of halves) {
      half.setProducerState(batch.producerId, batch.producerEpoch, sequence);
      sequence = incrementSequence(sequence, half.recordCount);
    }
    if (i >= 0) p.inFlight.splice(i, 1, ...halves);
  }

  /**
   * Carries out the resets that can go ahead: nothing of the partition in a request, and no held batch whose
   * fate is unknown at its head. Bumps the epoch (once per epoch) and renumbers the held batches from 0.
   * Returns true when the producer needs a new producer id first (the epoch is exhausted).
   */
  resetWhereReady(): boolean {
    for (const p of this.partitions.values()) {
      if (!p.needsReset || !this.hasProducerId) continue;
      if (p.inFlight.some((b) => b.outstanding) || p.inFlight[0]?.outcomeUnknown === true) continue;
      if (p.producerId === this.producerId && p.epoch === this.epoch) {
        if (this.epoch >= INT16_MAX) {
          this.setProducerId(NO_PRODUCER_ID, NO_PRODUCER_EPOCH);
          return true;
        }
        this.epoch++;
      }
      let sequence = 0;
      for (const b of p.inFlight) {
        b.setProducerState(this.producerId, this.epoch, sequence);
        sequence = incrementSequence(sequence, b.recordCount);
      }
      this.restart(p, sequence);
    }
    return !this.hasProducerId;
  }

  private restart(p: PartitionSequences, nextSequence: number): void {
    p.producerId = this.producerId;
    p.epoch = this.epoch;
    p.nextSequence = nextSequence;
    p.needsReset = false;
    p.confirmed = false;
  }

  private remove(batch: ProducerBatch): void {
    const p = this.entry(batch);
    const i = p.inFlight.indexOf(batch);
    if (i >= 0) p.inFlight.splice(i, 1);
  }

  private entry(batch: ProducerBatch): PartitionSequences {
    const key = partitionKey(batch.topic, batch.partition);
    let p = this.partitions.get(key);
    if (p === undefined) {
      p = {
        producerId: this.producerId,
        epoch: this.epoch,
        nextSequence: 0,
        inFlight: [],
        needsReset: false,
        confirmed: false,
      };
      this.partitions.set(key, p);
    }
    return p;
  }
}
