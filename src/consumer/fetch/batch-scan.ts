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
  /**
   * Why the batches' offsets cannot be what the broker holds (checked only with `bounds`): the whole answer
   * for the partition is then void. Undefined when they are plausible.
   */
  implausible?: string;
}

/** The offsets a fetch's batches must lie in: from the batch holding the fetch offset up to (excluding) the limit. */
export interface OffsetBounds {
  fetchOffset: bigint;
  /** The high watermark (or, under read_committed, the last stable offset) of the same response; -1: unknown. */
  limit: bigint;
  /** What `limit` is, for the message. */
  limitName: string;
}

/**
 * Reads the batch headers of `buf`. With `bounds`, also checks each complete batch's offsets, once per batch:
 * the first must reach the fetch offset, each must start after the one before, and none may reach the limit.
 * A base offset lies outside the batch CRC, so a bit flipped in it would otherwise move the position.
 */
export function scanBatches(buf: Buffer, bounds?: OffsetBounds): BatchScan {
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
      const baseOffset = buf.readBigInt64BE(pos);
      const batchEnd = baseOffset + BigInt(lastOffsetDelta + 1);
      if (bounds !== undefined) {
        const implausible = checkBatch(baseOffset, batchEnd, nextOffset, bounds);
        if (implausible !== undefined) return { nextOffset, lastEpoch, batches, corrupt: false, implausible };
      }
      nextOffset = batchEnd;
      lastEpoch = buf.readInt32BE(pos + PARTITION_LEADER_EPOCH);
    } else if (magic === 0 || magic === 1) {
      // A legacy entry's offset is its own, or for a compressed wrapper that of its last inner message.
      const offset = buf.readBigInt64BE(pos);
      if (bounds !== undefined) {
        const implausible = checkBatch(offset, offset + 1n, nextOffset, bounds);
        if (implausible !== undefined) return { nextOffset, lastEpoch, batches, corrupt: false, implausible };
      }
      nextOffset = offset + 1n;
      lastEpoch = -1;
    } else {
      return { nextOffset, lastEpoch, batches, corrupt: true };
    }
    batches++;
    pos += LOG_OVERHEAD + size;
  }
  return { nextOffset, lastEpoch, batches, corrupt: false };
}

/** Why a batch spanning `[base, end)` cannot be in this answer; undefined when it can. */
function checkBatch(base: bigint, end: bigint, previousEnd: bigint | undefined, b: OffsetBounds): string | undefined {
  if (previousEnd === undefined ? end <= b.fetchOffset : base < previousEnd) {
    const after = previousEnd === undefined ? `the fetch offset ${b.fetchOffset}` : `the batch before (${previousEnd})`;
    return `batch at offsets [${base}, ${end}) lies below ${after}`;
  }
  if (b.limit >= 0n && end > b.limit) {
    return `batch at offsets [${base}, ${end}) reaches past the ${b.limitName} ${b.limit}`;
  }
  return undefined;
}
