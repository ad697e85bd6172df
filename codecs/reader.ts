import { ProtocolError } from './errors.js';

/** A tagged field the reader did not recognise, kept so it can be written back unchanged. */
export interface UnknownTaggedField {
  tag: number;
  data: Buffer;
}

/**
 * Reads Kafka's primitive types from a buffer. Every read is bounds-checked
 * against `end` and fails with a ProtocolError carrying the byte offset and
 * the current field path (`path`, which generated decoders keep up to date),
 * never with a RangeError from inside Buffer.
 *
 * Variable-length values (bytes, records) are returned as views into the
 * source buffer, not copies: the caller owns the buffer's lifetime.
 */
export class Reader {
  offset: number;
  readonly end: number;
  /** Field being read; set by generated decoders so errors can name it. */
  path = '';

  constructor(
    readonly buf: Buffer,
    offset = 0,
    end = buf.length,
  ) {
    if (offset < 0 || end > buf.length || offset > end) {
      throw new ProtocolError(`invalid reader window [${offset}, ${end}) over ${buf.length} bytes`);
    }
    this.offset = offset;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  fail(reason: string): never {
    throw new ProtocolError(reason, { field: this.path, offset: this.offset });
  }

  /** Throws unless `n` more bytes are available. */
  ensure(n: number): void {
    if (n > this.end - this.offset) {
      this.fail(`needs ${n} bytes but only ${this.end - this.offset} remain`);
    }
  }

  skip(n: number): void {
    this.ensure(n);
    this.offset += n;
  }

  int8(): number {
    this.ensure(1);
    return this.buf.readInt8(this.offset++);
  }

  bool(): boolean {
    return this.int8() !== 0;
  }

  int16(): number {
    this.ensure(2);
    const v = this.buf.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }

  uint16(): number {
    this.ensure(2);
    const v = this.buf.readUInt16BE(this.offset);
    this.offset += 2;
    return v;
  }

  int32(): number {
    this.ensure(4);
    const v = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  uint32(): number {
    this.ensure(4);
    const v = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  int64(): bigint {
    this.ensure(8);
    const v = this.buf.readBigInt64BE(this.offset);
    this.offset += 8;
    return v;
  }

  float64(): number {
    this.ensure(8);
    const v = this.buf.readDoubleBE(this.offset);
    this.offset += 8;
    return v;
  }

  /** Unsigned LEB128 varint of at most 32 bits (Kafka's UNSIGNED_VARINT). */
  uvarint(): number {
    const buf = this.buf;
    let value = 0;
    let shift = 0;
    for (let i = 0; i < 5; i++) {
      if (this.offset >= this.end) this.fail('varint runs past the end');
      const b = buf[this.offset++];
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value >>> 0;
      shift += 7;
    }
    return this.fail('varint longer than 5 bytes');
  }

  /** Zigzag varint of at most 32 bits (Kafka's VARINT). */
  varint(): number {
    const raw = this.uvarint();
    return (raw >>> 1) ^ -(raw & 1);
  }

  /** Zigzag varlong of at most 64 bits (Kafka's VARLONG), exact. */
  varlong(): bigint {
    let raw = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.offset >= this.end) this.fail('varlong runs past the end');
      const b = this.buf[this.offset++];
      raw |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return (raw >> 1n) ^ -(raw & 1n);
      shift += 7n;
    }
    return this.fail('varlong longer than 10 bytes');
  }

  /** Reads `n` bytes as a view (no copy). */
  view(n: number): Buffer {
    this.ensure(n);
    const start = this.offset;
    this.offset += n;
    return this.buf.subarray(start, this.offset);
  }

  private utf8(n: number): string {
    this.ensure(n);
    const start = this.offset;
    this.offset += n;
    return this.buf.toString('utf8', start, this.offset);
  }

  private checkLength(n: number, nullable: boolean, what: string): boolean {
    if (n === -1) {
      if (!nullable) this.fail(`${what} is null but the field is not nullable`);
      return false;
    }
    if (n < 0) this.fail(`${what} has negative length ${n}`);
    return true;
  }

  string(): string {
    const n = this.int16();
    this.checkLength(n, false, 'string');
    return this.utf8(n);
  }

  nullableString(): string | null {
    const n = this.int16();
    return this.checkLength(n, true, 'string') ? this.utf8(n) : null;
  }

  compactString(): string {
    const n = this.uvarint() - 1;
    this.checkLength(n, false, 'string');
    return this.utf8(n);
  }

  compactNullableString(): string | null {
    const n = this.uvarint() - 1;
    return this.checkLength(n, true, 'string') ? this.utf8(n) : null;
  }

  bytes(): Buffer {
    const n = this.int32();
    this.checkLength(n, false, 'bytes');
    return this.view(n);
  }

  nullableBytes(): Buffer | null {
    const n = this.int32();
    return this.checkLength(n, true, 'bytes') ? this.view(n) : null;
  }

  compactBytes(): Buffer {
    const n = this.uvarint() - 1;
    this.checkLength(n, false, 'bytes');
    return this.view(n);
  }

  compactNullableBytes(): Buffer | null {
    const n = this.uvarint() - 1;
    return this.checkLength(n, true, 'bytes') ? this.view(n) : null;
  }

  /** A UUID in Kafka's text form: URL-safe base64 without padding. */
  uuid(): string {
    this.ensure(16);
    const start = this.offset;
    this.offset += 16;
    return this.buf.toString('base64url', start, this.offset);
  }

  /**
   * An element count, checked against the bytes left so that a hostile
   * count cannot make the caller allocate: each element takes at least
   * `minElementSize` bytes (at least 1 is assumed). Returns -1 for null.
   */
  arrayLength(minElementSize: number, nullable: boolean): number {
    return this.checkCount(this.int32(), minElementSize, nullable);
  }

  compactArrayLength(minElementSize: number, nullable: boolean): number {
    return this.checkCount(this.uvarint() - 1, minElementSize, nullable);
  }

  private checkCount(n: number, minElementSize: number, nullable: boolean): number {
    if (!this.checkLength(n, nullable, 'array')) return -1;
    if (n * Math.max(1, minElementSize) > this.end - this.offset) {
      this.fail(`array claims ${n} elements but only ${this.end - this.offset} bytes remain`);
    }
    return n;
  }

  /**
   * Reads a tagged-field section. `known(tag, reader)` decodes a tag it
   * recognises and returns true; other tags are collected so they survive a
   * round trip. Returns the unknown fields, or undefined if there were none.
   */
  taggedFields(known?: (tag: number, r: Reader) => boolean): UnknownTaggedField[] | undefined {
    const count = this.uvarint();
    if (count > this.end - this.offset) this.fail(`tagged-field count ${count} exceeds the bytes left`);
    let unknown: UnknownTaggedField[] | undefined;
    let lastTag = -1;
    for (let i = 0; i < count; i++) {
      const tag = this.uvarint();
      if (tag <= lastTag) this.fail(`tagged fields out of order: tag ${tag} after ${lastTag}`);
      lastTag = tag;
      const size = this.uvarint();
      this.ensure(size);
      const fieldEnd = this.offset + size;
      if (known !== undefined) {
        const saved = this.offset;
        const sub = new Reader(this.buf, saved, fieldEnd);
        sub.path = this.path;
        if (known(tag, sub)) {
          this.offset = fieldEnd;
          continue;
        }
      }
      if (unknown === undefined) unknown = [];
      unknown.push({ tag, data: this.view(size) });
    }
    return unknown;
  }
}
