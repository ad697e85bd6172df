/**
 * Writing the varint-encoded records of a v2 batch: sizes first (one
 * allocation for the whole section), then the bytes. A plain record (bytes
 * or null for key and value, no headers: what a producer sends most) is
 * sized and written straight from its input, without a prepared copy, so
 * encoding a batch allocates nothing per record.
 */

export interface RecordHeaderInput {
  key: string;
  value: Uint8Array | string | null;
}

export interface RecordInput {
  key?: Uint8Array | string | null;
  value?: Uint8Array | string | null;
  headers?: readonly RecordHeaderInput[];
  /** Milliseconds since the epoch; defaults to the batch's `now`. */
  timestamp?: number;
  /** Position in the batch; defaults to the record's index. Must increase. */
  offsetDelta?: number;
}

/** A record with its bytes resolved and its encoded size known. */
export interface PreparedRecord {
  timestampDelta: number;
  offsetDelta: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: Array<{ key: Buffer; value: Uint8Array | null }>;
  /** Bytes after the length varint. */
  bodySize: number;
}

function bytesOf(v: Uint8Array | string | null | undefined): Uint8Array | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
}

function zigzag32(v: number): number {
  return ((v << 1) ^ (v >> 31)) >>> 0;
}

/** Zigzag of a 64-bit value held in a number (exact within ±2^53). */
function zigzag64(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 - 1;
}

export function uvarintSize(v: number): number {
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

export function varintSize(v: number): number {
  return uvarintSize(zigzag32(v));
}

export function writeUvarint(buf: Uint8Array, p: number, v: number): number {
  if (v < 0x80) {
    buf[p] = v;
    return p + 1;
  }
  while (v >= 0x80) {
    buf[p++] = (v % 128) | 0x80;
    v = Math.floor(v / 128);
  }
  buf[p++] = v;
  return p;
}

export function writeVarint(buf: Uint8Array, p: number, v: number): number {
  return writeUvarint(buf, p, zigzag32(v));
}

function lengthSize(b: Uint8Array | null): number {
  return b === null ? 1 : varintSize(b.length) + b.length;
}

export function prepareRecord(input: RecordInput, index: number, baseTimestamp: number, now: number): PreparedRecord {
  const key = bytesOf(input.key);
  const value = bytesOf(input.value);
  const headers = (input.headers ?? []).map((h) => ({ key: Buffer.from(h.key, 'utf8'), value: bytesOf(h.value) }));
  const timestampDelta = (input.timestamp ?? now) - baseTimestamp;
  const offsetDelta = input.offsetDelta ?? index;
  let bodySize = 1 + uvarintSize(zigzag64(timestampDelta)) + varintSize(offsetDelta);
  bodySize += lengthSize(key) + lengthSize(value) + varintSize(headers.length);
  for (const h of headers) bodySize += lengthSize(h.key) + lengthSize(h.value);
  return { timestampDelta, offsetDelta, key, value, headers, bodySize };
}

export function encodedRecordSize(r: PreparedRecord): number {
  return varintSize(r.bodySize) + r.bodySize;
}

function writeBytes(buf: Uint8Array, p: number, b: Uint8Array | null): number {
  if (b === null) return writeVarint(buf, p, -1);
  p = writeVarint(buf, p, b.length);
  buf.set(b, p);
  return p + b.length;
}

/** Writes one record at `p`; returns the position after it. */
export function writeRecord(buf: Uint8Array, p: number, r: PreparedRecord): number {
  p = writeVarint(buf, p, r.bodySize);
  buf[p++] = 0; // record attributes: unused
  p = writeUvarint(buf, p, zigzag64(r.timestampDelta));
  p = writeVarint(buf, p, r.offsetDelta);
  p = writeBytes(buf, p, r.key);
  p = writeBytes(buf, p, r.value);
  p = writeVarint(buf, p, r.headers.length);
  for (const h of r.headers) {
    p = writeBytes(buf, p, h.key);
    p = writeBytes(buf, p, h.value);
  }
  return p;
}

/** A record sized and written from its input as it is: key and value bytes (or none), no headers. */
export function isPlainRecord(input: RecordInput): boolean {
  const { key, value, headers } = input;
  return typeof key !== 'string' && typeof value !== 'string' && (headers === undefined || headers.length === 0);
}

function plainLengthSize(b: Uint8Array | null | undefined): number {
  return b === null || b === undefined ? 1 : varintSize(b.length) + b.length;
}

/** Body size (bytes after the length varint) of a plain record (isPlainRecord). */
export function plainRecordBodySize(input: RecordInput, timestampDelta: number, offsetDelta: number): number {
  const key = input.key as Uint8Array | null | undefined;
  const value = input.value as Uint8Array | null | undefined;
  // attributes, deltas, key, value, and a header count of 0 (1 byte).
  return (
    2 + uvarintSize(zigzag64(timestampDelta)) + varintSize(offsetDelta) + plainLengthSize(key) + plainLengthSize(value)
  );
}

function writePlainBytes(buf: Uint8Array, p: number, b: Uint8Array | null | undefined): number {
  if (b === null || b === undefined) {
    buf[p] = 1; // zigzag(-1)
    return p + 1;
  }
  p = writeVarint(buf, p, b.length);
  buf.set(b, p);
  return p + b.length;
}

/** Writes a plain record (isPlainRecord) at `p`, as writeRecord would its prepared form; returns the end. */
export function writePlainRecord(
  buf: Uint8Array,
  p: number,
  input: RecordInput,
  bodySize: number,
  timestampDelta: number,
  offsetDelta: number,
): number {
  p = writeVarint(buf, p, bodySize);
  buf[p++] = 0; // record attributes: unused
  p = writeUvarint(buf, p, zigzag64(timestampDelta));
  p = writeVarint(buf, p, offsetDelta);
  p = writePlainBytes(buf, p, input.key as Uint8Array | null | undefined);
  p = writePlainBytes(buf, p, input.value as Uint8Array | null | undefined);
  buf[p++] = 0; // no headers
  return p;
}
