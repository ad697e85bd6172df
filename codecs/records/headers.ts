import { viewOf } from './buffer-view.js';

/**
 * Record headers: their type, and the decoding of a header section the record
 * decoder has already checked (codecs/records/decode-records.ts validates
 * every length at decode time and keeps the section as bytes; KafkaRecord
 * calls decodeCheckedHeaders on the first read of `headers`).
 */

/** One record header: a UTF-8 key and a byte value, as Kafka stores them. */
export interface RecordHeader {
  key: string;
  /** A view into the fetched bytes (no copy); null when the header value is null. */
  value: Buffer | null;
}

export const EMPTY_HEADERS: readonly RecordHeader[] = Object.freeze([]);

/**
 * A record's header section, checked by the decoder but not yet decoded: made only for records that have
 * headers, so a record without them carries one field for its headers (KafkaRecord's `headers`).
 */
export class UndecodedHeaders {
  constructor(
    /** The batch's buffer holding the section (shared, no view made). */
    readonly source: Buffer,
    /** Where the section (count first) starts in `source`; stored as -1 - start once it has been read once. */
    public at: number,
  ) {}
}

/** Where readVarint left the position (a module slot beats returning a pair). */
let varEnd = 0;

/** A zigzag varint of at most 5 bytes at `p`; the bytes were bounds-checked by the decoder. */
function readVarint(buf: Buffer, p: number): number {
  let raw = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const b = buf[p++];
    raw |= (b & 0x7f) << shift;
    if (b < 0x80) break;
  }
  varEnd = p;
  return (raw >>> 1) ^ -(raw & 1);
}

/**
 * The headers of one record whose header section (count varint first) starts
 * at `bytes[at]` and was checked by the record decoder. Keys are decoded as
 * UTF-8; values are views into the same memory, like record keys and values.
 */
export function decodeCheckedHeaders(bytes: Buffer, at: number): RecordHeader[] {
  const count = readVarint(bytes, at);
  let p = varEnd;
  const headers: RecordHeader[] = [];
  const ab = bytes.buffer;
  const base = bytes.byteOffset;
  for (let i = 0; i < count; i++) {
    const keyLen = readVarint(bytes, p);
    p = varEnd;
    const key = bytes.toString('utf8', p, p + keyLen);
    p += keyLen;
    const valueLen = readVarint(bytes, p);
    p = varEnd;
    let value: Buffer | null = null;
    if (valueLen >= 0) {
      value = viewOf(ab, base + p, valueLen);
      p += valueLen;
    }
    headers.push({ key, value });
  }
  return headers;
}
