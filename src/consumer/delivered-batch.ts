/**
 * The batch the consumer hands to the application (DeliveredBatch): the records of one slice of a fetched chunk,
 * with what the delivery cursor (delivery.ts) needs to settle it later, and the acknowledgements it takes.
 */
import type { ConsumerBatch, ConsumerRecord } from './consumer-record.js';
import type { CompletedFetch } from './fetch/fetch-buffer.js';
import type { FrameLease } from './fetch/frame-pool.js';
import type { PartitionState } from './positions.js';

/** A batch as handed to the application, with what the cursor needs to settle it later. */
export class DeliveredBatch implements ConsumerBatch {
  readonly topic: string;
  readonly partition: number;
  readonly highWatermark: bigint;
  readonly lastStableOffset: bigint;
  readonly logStartOffset: bigint;

  constructor(
    readonly state: PartitionState,
    readonly chunk: CompletedFetch,
    readonly records: readonly ConsumerRecord[],
    readonly nextOffset: bigint,
    /** Leader epoch of the last batch read, for the processed mark. */
    readonly lastEpoch: number,
    /** The position's epoch before this batch, to go back to if it is abandoned unprocessed. */
    readonly startEpoch: number,
    private readonly readCommitted: boolean,
    /** The chunk's last slice: finishing it frees the chunk's bytes. */
    readonly last: boolean,
    /** The pooled memory the records lie in (`reuseFetchBuffers`), held until the batch settles; else none. */
    frame: FrameLease | undefined,
  ) {
    this.topic = state.topic;
    this.partition = state.partition;
    this.highWatermark = chunk.highWatermark;
    this.lastStableOffset = chunk.lastStableOffset;
    this.logStartOffset = chunk.logStartOffset;
    this.moves = state.moves;
    frame?.hold();
    this.frame = frame;
  }

  /** The partition's `moves` at delivery: after a seek, this batch may no longer mark anything processed. */
  readonly moves: number;
  /**
   * The pooled response memory the records lie in (`reuseFetchBuffers`), held until the batch settles: a
   * detached batch may outlive its chunk (frame-pool.ts). With default options the records lie in copies
   * (chunk-reader.ts) and the batch holds none.
   */
  frame: FrameLease | undefined;

  get lag(): bigint {
    const end = this.readCommitted && this.lastStableOffset >= 0n ? this.lastStableOffset : this.highWatermark;
    return end > this.nextOffset ? end - this.nextOffset : 0n;
  }

  /** Whether processing this batch still means something for the partition (no seek since). */
  get current(): boolean {
    return this.state.moves === this.moves;
  }

  ack(record?: ConsumerRecord): void {
    if (!this.current) return;
    if (record === undefined) this.state.markProcessed(this.nextOffset, this.lastEpoch);
    else this.state.ackUpTo(record);
  }

  /** The per-record iterator finished `record`: remembered as the record, its offset computed only if committed. */
  recordDone(record: ConsumerRecord): void {
    if (this.current) this.state.markRecordProcessed(record);
  }
}
