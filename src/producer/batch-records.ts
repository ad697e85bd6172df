/**
 * The records of one producer batch, kept the way Java's MemoryRecordsBuilder keeps them: each record is
 * written into the batch's buffer (after room for the v2 header) when it is appended, and what is left of it per
 * record is a few columns: its timestamp and how to settle it. Nothing per record survives as an object of its
 * own: the prepared record, its key and value die young, and the garbage collector copies only the settlers of
 * the records in flight (`send()` per record spent about 40 % of its CPU in the collector copying them).
 */
import { CompressionCodec, type CompressionCodecId, compress } from '../../codecs/compression/index.js';
import { lz4Compress } from '../../codecs/compression/lz4.js';
import { V2 } from '../../codecs/records/decode-batch.js';
import { type EncodeBatchOptions, writeBatchHeader } from '../../codecs/records/encode-batch.js';
import {
  isPlainRecord,
  plainRecordBodySize,
  prepareRecord as prepareBatchRecord,
  uvarintSize,
  varintSize,
  writePlainRecord,
  writeRecord,
  writeUvarint,
  writeVarint,
} from '../../codecs/records/encode-records.js';
import type { PendingRecord, RecordGroup, RecordMetadata } from './batch.js';
import type { BatchBuffers } from './batch-buffers.js';

type Resolve = (metadata: RecordMetadata) => void;

/**
 * Bytes a batch's buffer starts with (header included) without a pool of buffers, unless its first record
 * needs more; it doubles as it fills, so a batch of few records does not hold a whole `batchSize`.
 */
const INITIAL_CAPACITY = 16 * 1024;

const NO_BYTES = Buffer.alloc(0);

export class BatchRecords {
  /** Header room, then the records written so far (up to `end`). */
  private buf: Buffer = NO_BYTES;
  /** `buf` came from `pool` and goes back to it (release()). */
  private pooled = false;

  /** `pool`: where the batch's buffer comes from (batch-buffers.ts); none: a buffer of its own, grown by doubling. */
  constructor(private readonly pool: BatchBuffers | undefined = undefined) {}
  private end: number = V2.headerSize;
  private baseTimestamp = 0;
  private maxTimestamp = -1;
  /**
   * The records' timestamps (what each one's metadata says unless the topic uses LogAppendTime) as runs: a run's
   * timestamp and the index of its first record. Records sent in the same millisecond share one entry, so a
   * batch of `send()`s keeps a few dozen numbers instead of one per record (a column of one per record, grown
   * by copying as it fills, was about 50 bytes of garbage per record).
   */
  private readonly runTimestamps: number[] = [];
  private readonly runStarts: number[] = [];
  /**
   * Each record's `resolve`, or for a sendBatch() record its group (send-group.ts). Not its `reject`: a failed
   * record is resolved with a rejected promise, which rejects it with the same error (two microtasks later),
   * so the reject function of each record in flight dies young instead of being copied by the collector.
   */
  private readonly resolvers: (Resolve | RecordGroup)[] = [];
  /**
   * For a sendBatch() record, its index in its group; 0 for a `send()`. Made when the first grouped record is
   * appended (a batch of `send()`s has none).
   */
  private groupIndexes: number[] | undefined;

  get count(): number {
    return this.resolvers.length;
  }

  /** Bytes of the records section written so far. */
  get rawSize(): number {
    return this.end - V2.headerSize;
  }

  /** Writes `record` after the others and keeps its settlers; the record object itself is not kept. */
  append(record: PendingRecord): void {
    const index = this.resolvers.length;
    const ts = record.timestamp;
    this.noteTimestamp(index, ts);
    const timestampDelta = ts - this.baseTimestamp;
    if (isPlainRecord(record)) {
      const bodySize = plainRecordBodySize(record, timestampDelta, index);
      this.reserve(varintSize(bodySize) + bodySize);
      this.end = writePlainRecord(this.buf, this.end, record, bodySize, timestampDelta, index);
    } else {
      const prepared = prepareBatchRecord(record, index, this.baseTimestamp, ts);
      this.reserve(varintSize(prepared.bodySize) + prepared.bodySize);
      this.end = writeRecord(this.buf, this.end, prepared);
    }
    const group = record.group;
    if (group === undefined) this.addSettler(index, record.resolve, 0);
    else this.addSettler(index, group, record.index);
  }

  /** Starts a run when `ts` differs from the last record's; the first record's is the batch's base. */
  private noteTimestamp(index: number, ts: number): void {
    const runs = this.runTimestamps;
    if (index === 0) this.baseTimestamp = ts;
    if (ts > this.maxTimestamp) this.maxTimestamp = ts;
    if (index === 0 || runs[runs.length - 1] !== ts) {
      runs.push(ts);
      this.runStarts.push(index);
    }
  }

  /** Keeps record `index`'s settler (and its index in its group, once the batch has a grouped record). */
  private addSettler(index: number, settle: Resolve | RecordGroup, groupIndex: number): void {
    this.resolvers.push(settle);
    let indexes = this.groupIndexes;
    if (indexes === undefined) {
      if (typeof settle === 'function') return;
      indexes = new Array<number>(index).fill(0);
      this.groupIndexes = indexes;
    }
    indexes.push(groupIndex);
  }

  /** Record `i`'s timestamp (a search of the runs: for moving records, not for the hot path). */
  private timestampAt(i: number): number {
    const starts = this.runStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return this.runTimestamps[lo];
  }

  /** The batch's wire bytes: the header filled in before the records, or before their compressed form. */
  encode(codec: number, level: number | undefined, header: EncodeBatchOptions): Buffer {
    let out: Buffer;
    const raw = this.buf.subarray(V2.headerSize, this.end);
    if (codec === CompressionCodec.none) out = this.buf.subarray(0, this.end);
    // lz4 writes its frame after room for the header: no copy of the compressed records behind it.
    else if (codec === CompressionCodec.lz4) out = lz4Compress(raw, 2, V2.headerSize);
    else {
      const payload = compress(codec as CompressionCodecId, raw, { level, magic: 2 });
      out = Buffer.allocUnsafe(V2.headerSize + payload.length);
      out.set(payload, V2.headerSize);
    }
    const last = Math.max(this.count - 1, 0);
    writeBatchHeader(out, codec, this.count, {
      ...header,
      baseTimestamp: this.baseTimestamp,
      maxTimestamp: this.maxTimestamp,
      lastOffsetDelta: last,
    });
    return out;
  }

  /** Resolves every record: offsets from `baseOffset` (-1n each when unknown), `appendTime` if the topic uses it. */
  resolveAll(topic: string, partition: number, baseOffset: bigint, appendTime: number): void {
    const known = baseOffset >= 0n;
    const { runTimestamps, runStarts, resolvers } = this;
    // One bigint per record (an increment), not two (BigInt(i) and the sum).
    let offset = baseOffset;
    let run = 0;
    let timestamp = runTimestamps[0];
    let nextRunAt = runStarts.length > 1 ? runStarts[1] : resolvers.length;
    for (let i = 0; i < resolvers.length; i++) {
      if (i === nextRunAt) {
        run++;
        timestamp = runTimestamps[run];
        nextRunAt = run + 1 < runStarts.length ? runStarts[run + 1] : resolvers.length;
      }
      const metadata: RecordMetadata = {
        topic,
        partition,
        offset: known ? offset : -1n,
        timestamp: appendTime >= 0 ? appendTime : timestamp,
      };
      const settle = resolvers[i];
      if (typeof settle === 'function') settle(metadata);
      else settle.delivered((this.groupIndexes as number[])[i], metadata);
      if (known) offset++;
    }
  }

  /** Rejects every record with `errorFor(err)` (a transactional producer's view of the failure, or `err`). */
  rejectAll(err: Error, errorFor: ((err: Error) => Error) | undefined): void {
    let failure: Error | undefined;
    let rejected: Promise<never> | undefined;
    for (let i = 0; i < this.resolvers.length; i++) {
      const error = errorFor === undefined ? err : errorFor(err);
      const settle = this.resolvers[i];
      if (typeof settle !== 'function') {
        settle.failed(error);
        continue;
      }
      if (error !== failure || rejected === undefined) {
        failure = error;
        rejected = Promise.reject(error);
        // Handled here: each record's own promise carries the rejection to whoever awaits it.
        rejected.catch(ignore);
      }
      settle(rejected as unknown as RecordMetadata);
    }
  }

  /**
   * Moves records `from` up to `to` into `target` (an empty batch's records), rewritten with offset deltas
   * from 0 and timestamp deltas from the first one moved: the answer to MESSAGE_TOO_LARGE. Walks the records
   * section this batch wrote itself.
   */
  moveTo(target: BatchRecords, from: number, to: number): void {
    let p: number = V2.headerSize;
    for (let i = 0; i < to; i++) {
      const [bodySize, bodyStart] = readVarint(this.buf, p);
      const next = bodyStart + bodySize;
      if (i >= from) target.appendEncoded(this, i, this.buf.subarray(bodyStart, next));
      p = next;
    }
  }

  /** Appends record `i` of `source`, its body given (attributes, deltas, then key, value and headers). */
  private appendEncoded(source: BatchRecords, i: number, body: Buffer): void {
    const index = this.resolvers.length;
    const ts = source.timestampAt(i);
    this.noteTimestamp(index, ts);
    const [, afterTimestamp] = readVarint(body, 1);
    const [, rest] = readVarint(body, afterTimestamp);
    const timestampDelta = zigzag64(ts - this.baseTimestamp);
    const tail = body.subarray(rest);
    const bodySize = 1 + uvarintSize(timestampDelta) + varintSize(index) + tail.length;
    this.reserve(varintSize(bodySize) + bodySize);
    let p = writeVarint(this.buf, this.end, bodySize);
    this.buf[p++] = body[0];
    p = writeUvarint(this.buf, p, timestampDelta);
    p = writeVarint(this.buf, p, index);
    this.buf.set(tail, p);
    this.end = p + tail.length;
    this.addSettler(index, source.resolvers[i], source.groupIndexes?.[i] ?? 0);
  }

  /**
   * Makes room for `bytes` more: the pool's buffer first, then doubling (records already written are copied
   * once per doubling, and a pooled buffer left behind goes back at once: nothing was sent from it).
   */
  private reserve(bytes: number): void {
    const needed = this.end + bytes;
    if (needed <= this.buf.length) return;
    const pool = this.pool;
    if (this.buf === NO_BYTES && pool !== undefined && needed <= pool.bufferBytes) {
      this.buf = pool.take();
      this.pooled = true;
      return;
    }
    const grown = Buffer.allocUnsafe(Math.max(needed, 2 * this.buf.length, INITIAL_CAPACITY));
    this.buf.copy(grown, 0, 0, this.end);
    if (this.pooled) pool?.give(this.buf);
    this.pooled = false;
    this.buf = grown;
  }

  /**
   * Gives the buffer back to the pool: only once the broker has answered for the batch (batch-buffers.ts), and
   * the records are not read again.
   */
  releaseBuffer(): void {
    if (this.pooled) this.pool?.give(this.buf);
    this.pooled = false;
    this.buf = NO_BYTES;
  }
}

function ignore(): void {}

function zigzag64(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 - 1;
}

/** A zigzag varint this batch wrote: [value, position after it]. */
function readVarint(buf: Buffer, p: number): [number, number] {
  let raw = 0;
  let scale = 1;
  for (;;) {
    const b = buf[p++];
    raw += (b & 0x7f) * scale;
    if (b < 0x80) break;
    scale *= 128;
  }
  return [raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2, p];
}
