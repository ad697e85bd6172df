import { decodeRecords } from '../../../codecs/records/decode.js';
import { V2 } from '../../../codecs/records/decode-batch.js';
import { MAX_PRESIZED } from '../../../codecs/records/decode-records.js';
import { CorruptRecordError } from '../../../codecs/records/errors.js';
import { ControlRecordType, type RecordBatch } from '../../../codecs/records/types.js';
import { ConsumerRecord, RecordSource } from '../consumer-record.js';
import type { CompletedFetch } from './fetch-buffer.js';

export interface DecodeChunkOptions {
  checkCrc: boolean;
  readCommitted: boolean;
  maxDecompressedBytes?: number;
  /**
   * Records must not reference the chunk's pooled frame (default options, the frame goes back to the pool once
   * the chunk is decoded): records of a chunk in pooled memory are decoded from a copy made per batch. Off with
   * `reuseFetchBuffers`, whose keys, values and headers are views into the frame.
   */
  copyOut?: boolean;
}

/** One slice of a chunk, decoded: what the application sees of it, and where it ends. */
export interface DecodedSlice {
  /** The records the application may see, from the position on. */
  records: ConsumerRecord[];
  /** The offset after the slice: its last batch's end, or for the chunk's last slice the chunk's end. */
  nextOffset: bigint;
  /** Leader epoch of the slice's last batch; -1 when it had none. */
  lastEpoch: number;
  /** A batch that could not be decoded; `records` holds those before it, and the partition stops there. */
  error: Error | undefined;
  /** Where the bad batch starts, when known. */
  errorOffset: bigint | undefined;
}

/** LOG_OVERHEAD (offset + size) and the smallest entry any magic allows. */
const PREFIX = 12;
const MIN_ENTRY = 14;

/**
 * Decodes a fetched chunk a slice of whole batches at a time (about `sliceBytes` each), as the application
 * asks for records. A 1 MiB chunk is ~10,000 small records; decoding it whole keeps all of them alive until the
 * application is through, and every young-generation collection in between copies them. Slices of tens of
 * kilobytes die young. Each slice is checked (CRC once per batch) and decoded by the records codec; control
 * batches are hidden, aborted transactions dropped under read_committed, and records before the position
 * skipped (a fetch may begin inside a batch). Keys and values are views of the fetched bytes, or with
 * `copyOut` of a chunk in pooled memory, views of a copy of each batch's records.
 */
export class ChunkReader {
  private pos = 0;
  private readonly filter: AbortedFilter | undefined;
  /** Whether batches are decoded from copies: asked for, and the chunk lies in pooled memory (frame-pool.ts). */
  readonly copiesOut: boolean;

  constructor(
    readonly chunk: CompletedFetch,
    private readonly options: DecodeChunkOptions,
  ) {
    this.filter = options.readCommitted ? new AbortedFilter(chunk.abortedTransactions) : undefined;
    // A chunk in memory of its own (a small response, copied out of the network's scratch) needs no copy.
    this.copiesOut = options.copyOut === true && chunk.frame !== undefined;
  }

  /** No complete batch left. */
  get done(): boolean {
    return this.endOfNextSlice(1) === this.pos;
  }

  /**
   * Decodes the next slice: whole batches from the current position until `sliceBytes` of them (as fetched)
   * or `sliceRecords` records (as their headers count them) are reached, whichever comes first.
   */
  next(position: bigint, sliceBytes: number, sliceRecords = Number.POSITIVE_INFINITY): DecodedSlice {
    const { chunk } = this;
    const { topic, partition } = chunk.state;
    const end = this.endOfNextSlice(sliceBytes, sliceRecords);
    let batches: RecordBatch[];
    let error: Error | undefined;
    let errorOffset: bigint | undefined;
    try {
      batches = decodeRecords(chunk.records.subarray(this.pos, end), {
        topic,
        partition,
        checkCrc: this.options.checkCrc,
        maxDecompressedBytes: this.options.maxDecompressedBytes,
        copyOut: this.copiesOut,
      }).batches;
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      batches = err instanceof CorruptRecordError ? err.decodedBefore : [];
      error = err;
      errorOffset = err instanceof CorruptRecordError ? err.baseOffset : undefined;
    }
    this.pos = end;
    if (error === undefined && chunk.corrupt && this.done) {
      error = new CorruptRecordError('a batch header in the fetched records is invalid', { topic, partition });
    }
    // Sized once for every record the slice holds (~600 at 100 B values), not grown by push: growing copies
    // the array eight times on the way to 600. Records skipped below are cut off at the end.
    let total = 0;
    for (const batch of batches) total += batch.records.length;
    const records: ConsumerRecord[] = total <= MAX_PRESIZED ? new Array(total) : [];
    let k = 0;
    let lastEpoch = -1;
    let nextOffset = position;
    for (const batch of batches) {
      lastEpoch = batch.partitionLeaderEpoch;
      if (batch.lastOffset >= nextOffset) nextOffset = batch.lastOffset + 1n;
      if (this.filter?.skips(batch)) continue;
      if (batch.isControl || batch.lastOffset < position) continue;
      const source = new RecordSource(topic, partition, batch.partitionLeaderEpoch);
      const list = batch.records;
      // Only the first batch can start before the position; compare deltas as numbers, not offsets as BigInts.
      let i = 0;
      if (batch.baseOffset < position) {
        const minDelta = Number(position - batch.baseOffset);
        while (i < list.length && list[i].offsetDelta < minDelta) i++;
      }
      for (; i < list.length; i++) records[k++] = new ConsumerRecord(source, list[i]);
    }
    if (records.length !== k) records.length = k;
    if (error === undefined && this.done && chunk.nextOffset > nextOffset) nextOffset = chunk.nextOffset;
    return { records, nextOffset, lastEpoch, error, errorOffset };
  }

  /**
   * Where a slice of about `bytes` (or `records`) from the current position ends: after whole batches, read from
   * their size fields (and v2 record counts) only. A size that cannot be right takes the rest of the chunk, so the
   * decoder names the problem; a record count that cannot be right only ends the slice, and the decoder names it.
   *
   * Records count as well as bytes because a compressed batch decodes to several times its fetched size: 32 KiB
   * of lz4 batches of 100 B values is ~1,500 records, whose objects are what survives a young collection.
   */
  private endOfNextSlice(bytes: number, records = Number.POSITIVE_INFINITY): number {
    const buf = this.chunk.records;
    let end = this.pos;
    let counted = 0;
    while (buf.length - end >= PREFIX) {
      const size = buf.readInt32BE(end + 8);
      if (size < MIN_ENTRY) return buf.length;
      if (size > buf.length - end - PREFIX) break;
      // A legacy entry (magic 0/1) counts as one record; a v2 batch header holds its record count.
      counted +=
        size >= V2.headerSize - PREFIX && buf[end + V2.magic] === 2 ? buf.readInt32BE(end + V2.recordCount) : 1;
      end += PREFIX + size;
      if (end - this.pos >= bytes || counted >= records) break;
    }
    return end;
  }
}

/**
 * read_committed filtering, as Kafka's consumer does it: the response lists the aborted transactions (producer
 * id and first offset) overlapping the fetched range. Walking the batches in order, a transaction becomes
 * "open and aborted" once its first offset is reached, its producer's transactional batches are dropped until
 * its ABORT marker, and the marker closes it.
 */
export class AbortedFilter {
  private readonly pending: { producerId: bigint; firstOffset: bigint }[];
  private next = 0;
  private readonly aborted = new Set<bigint>();

  constructor(abortedTransactions: readonly { producerId: bigint; firstOffset: bigint }[] | null) {
    this.pending =
      abortedTransactions === null
        ? []
        : [...abortedTransactions].sort((a, b) =>
            a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0,
          );
  }

  /** Whether `batch` must not be shown (it belongs to an aborted transaction). Call for every batch, in order. */
  skips(batch: RecordBatch): boolean {
    if (batch.producerId < 0n) return false;
    while (this.next < this.pending.length && this.pending[this.next].firstOffset <= batch.lastOffset) {
      this.aborted.add(this.pending[this.next++].producerId);
    }
    if (batch.isControl) {
      if (batch.controlType === ControlRecordType.abort) this.aborted.delete(batch.producerId);
      return false;
    }
    return batch.isTransactional && this.aborted.has(batch.producerId);
  }
}
