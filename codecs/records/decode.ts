import { type DecodeRecordsOptions, decodeBatchV2, LOG_OVERHEAD, V2 } from './decode-batch.js';
import { CorruptRecordError } from './errors.js';
import { decodeLegacyEntry, LEGACY_MIN_SIZE } from './legacy.js';
import type { RecordBatch } from './types.js';

export interface DecodedRecords {
  /** The complete batches, in order. */
  batches: RecordBatch[];
  /**
   * Bytes at the end that did not form a complete batch. A fetch cuts the
   * last batch at its size limit, so this is normal; when there are no
   * batches at all it means the next batch is larger than the fetch size.
   */
  partialBytes: number;
}

/** Smallest size field any entry may have (a magic 0 message). */
const MIN_ENTRY_SIZE = LEGACY_MIN_SIZE[0];

/**
 * Decodes a partition's `records` bytes from a Fetch response: any mix of
 * v2 batches and legacy (magic 0/1) messages, each returned as a batch
 * whose keys and values are views into `buf` (or into the decompressed
 * payload), never copies. A trailing partial batch is skipped, not an
 * error. Bad bytes raise CorruptRecordError (a ProtocolError) naming the
 * batch; it carries the complete batches decoded before the bad one in
 * `decodedBefore`, so a consumer can still deliver those, as Kafka's does.
 */
export function decodeRecords(buf: Buffer, options: DecodeRecordsOptions = {}): DecodedRecords {
  const batches: RecordBatch[] = [];
  const end = buf.length;
  let pos = 0;
  try {
    while (end - pos >= LOG_OVERHEAD) {
      const size = buf.readInt32BE(pos + 8);
      if (size < MIN_ENTRY_SIZE) {
        throw new CorruptRecordError(`batch size ${size} is below the minimum ${MIN_ENTRY_SIZE}`, {
          ...options,
          baseOffset: buf.readBigInt64BE(pos),
          byteOffset: pos,
        });
      }
      if (size > end - pos - LOG_OVERHEAD) break;
      const entryEnd = pos + LOG_OVERHEAD + size;
      const magic = buf[pos + V2.magic];
      if (magic === 2) batches.push(decodeBatchV2(buf, pos, entryEnd, options));
      else if (magic === 0 || magic === 1) batches.push(decodeLegacyEntry(buf, pos, entryEnd, options));
      else {
        throw new CorruptRecordError(`unknown magic ${magic}`, {
          ...options,
          baseOffset: buf.readBigInt64BE(pos),
          byteOffset: pos + V2.magic,
        });
      }
      pos = entryEnd;
    }
  } catch (err) {
    if (err instanceof CorruptRecordError) err.decodedBefore = batches;
    throw err;
  }
  return { batches, partialBytes: end - pos };
}

/** Every record of every batch, control batches left out: the user-visible records. */
export function dataRecords(decoded: DecodedRecords): RecordBatch['records'] {
  const out: RecordBatch['records'] = [];
  for (const batch of decoded.batches) {
    if (batch.isControl) continue;
    for (const record of batch.records) out.push(record);
  }
  return out;
}
