import { LOG_OVERHEAD } from '../../../codecs/records/decode-batch.js';

/**
 * Reads only the headers of the batches in a fetched records section: where the next fetch starts and the
 * leader epoch it was written in. The fetch loop needs those the moment a response arrives, to send the next
 * fetch while the application is busy; decoding the records (CRC, decompression, one object per record) waits
 * until the application asks for them, so data that is dropped (a seek, a revoke) is never decoded at all.
 */

/** RecordBatch v2 header positions (from the start of the batch). */
const PARTITION_LEADER_EPOCH = 12;
const MAGIC = 16;
const LAST_OFFSET_DELTA = 23;
/** The v2 header after the offset and length prefix; also enough for any legacy message's magic byte. */
const V2_MIN_BATCH_LENGTH = 49;
const LEGACY_MIN_SIZE = 14;

export interface BatchScan {
  /** The offset after the last complete batch: where the next fetch begins. Undefined when none is complete. */
  nextOffset: bigint | undefined;
  /** The leader epoch of the last complete batch (-1 for legacy messages or none). */
  lastEpoch: number;
  /** Complete batches seen. */
  batches: number;
  /** A header that cannot be right was met; the decoder will name the problem when the batch is delivered. */
  corrupt: boolean;
}

export function scanBatches(buf: Buffer): BatchScan {
  const end = buf.length;
  let pos = 0;
  let nextOffset: bigint | undefined;
  let lastEpoch = -1;
  let batches = 0;
  while (end - pos >= LOG_OVERHEAD) {
    const size = buf.readInt32BE(pos + 8);
    if (size < LEGACY_MIN_SIZE) return { nextOffset, lastEpoch, batches, corrupt: true };
    if (size > end - pos - LOG_OVERHEAD) break;
    const magic = buf[pos + MAGIC];
    if (magic === 2) {
      if (size < V2_MIN_BATCH_LENGTH) return { nextOffset, lastEpoch, batches, corrupt: true };
      const lastOffsetDelta = buf.readInt32BE(pos + LAST_OFFSET_DELTA);
      if (lastOffsetDelta < 0) return { nextOffset, lastEpoch, batches, corrupt: true };
      nextOffset = buf.readBigInt64BE(pos) + BigInt(lastOffsetDelta + 1);
      lastEpoch = buf.readInt32BE(pos + PARTITION_LEADER_EPOCH);
    } else if (magic === 0 || magic === 1) {
      // A legacy entry's offset is its own, or for a compressed wrapper that of its last inner message.
      nextOffset = buf.readBigInt64BE(pos) + 1n;
      lastEpoch = -1;
    } else {
      return { nextOffset, lastEpoch, batches, corrupt: true };
    }
    batches++;
    pos += LOG_OVERHEAD + size;
  }
  return { nextOffset, lastEpoch, batches, corrupt: false };
}
