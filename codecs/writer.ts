import { ProtocolError } from './errors.js';
import type { UnknownTaggedField } from './reader.js';

const INITIAL_SIZE = 256;
/** Byte arrays at least this large are linked as their own chunk instead of copied. */
const LINK_THRESHOLD = 4096;

/**
 * Writes Kafka's primitive types. Small values go into a growing scratch
 * buffer; large byte arrays (record batches) are linked as separate chunks
 * so a Produce request never copies its records. `chunks()` returns the
 * pieces for a vectored socket write; `toBuffer()` joins them.
 */
export class Writer {
  private buf: Buffer;
  private pos = 0;
  /** Start of the part of `buf` not yet handed to `done`. */
  private start = 0;
  private readonly done: Buffer[] = [];
  private doneLength = 0;

  constructor(initialSize = INITIAL_SIZE) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.doneLength + this.pos - this.start;
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const used = this.pos - this.start;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, used + n, INITIAL_SIZE));
    this.buf.copy(next, 0, this.start, this.pos);
    this.buf = next;
    this.start = 0;
    this.pos = used;
  }

  int8(v: number): this {
    this.reserve(1);
    this.buf.writeInt8(v, this.pos);
    this.pos += 1;
    return this;
  }

  bool(v: boolean): this {
    return this.int8(v ? 1 : 0);
  }

  int16(v: number): this {
    this.reserve(2);
    this.buf.writeInt16BE(v, this.pos);
    this.pos += 2;
    return this;
  }

  uint16(v: number): this {
    this.reserve(2);
    this.buf.writeUInt16BE(v, this.pos);
    this.pos += 2;
    return this;
  }

  int32(v: number): this {
    this.reserve(4);
    this.buf.writeInt32BE(v, this.pos);
    this.pos += 4;
    return this;
  }

  uint32(v: number): this {
    this.reserve(4);
    this.buf.writeUInt32BE(v, this.pos);
    this.pos += 4;
    return this;
  }

  int64(v: bigint): this {
    this.reserve(8);
    this.buf.writeBigInt64BE(BigInt.asIntN(64, v), this.pos);
    this.pos += 8;
    return this;
  }

  float64(v: number): this {
    this.reserve(8);
    this.buf.writeDoubleBE(v, this.pos);
    this.pos += 8;
    return this;
  }

  uvarint(v: number): this {
    this.reserve(5);
    let x = v >>> 0;
    while (x > 0x7f) {
      this.buf[this.pos++] = (x & 0x7f) | 0x80;
      x >>>= 7;
    }
    this.buf[this.pos++] = x;
    return this;
  }

  varint(v: number): this {
    return this.uvarint(((v << 1) ^ (v >> 31)) >>> 0);
  }

  varlong(v: bigint): this {
    this.reserve(10);
    let x = BigInt.asUintN(64, (v << 1n) ^ (v >> 63n));
    while (x > 0x7fn) {
      this.buf[this.pos++] = Number(x & 0x7fn) | 0x80;
      x >>= 7n;
    }
    this.buf[this.pos++] = Number(x);
    return this;
  }

  /** Raw bytes with no length prefix. Large arrays are linked, not copied. */
  raw(bytes: Uint8Array): this {
    if (bytes.length >= LINK_THRESHOLD) {
      this.flushScratch();
      const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      this.done.push(b);
      this.doneLength += b.length;
      return this;
    }
    this.reserve(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  private flushScratch(): void {
    if (this.pos > this.start) {
      const part = this.buf.subarray(this.start, this.pos);
      this.done.push(part);
      this.doneLength += part.length;
      this.start = this.pos;
    }
  }

  private utf8(s: string, lengthPrefix: (n: number) => void): this {
    const n = Buffer.byteLength(s, 'utf8');
    lengthPrefix(n);
    this.reserve(n);
    this.pos += this.buf.write(s, this.pos, n, 'utf8');
    return this;
  }

  string(s: string): this {
    return this.utf8(s, (n) => {
      if (n > 0x7fff) throw new ProtocolError(`string of ${n} bytes exceeds the int16 length limit`);
      this.int16(n);
    });
  }

  nullableString(s: string | null | undefined): this {
    return s == null ? this.int16(-1) : this.string(s);
  }

  compactString(s: string): this {
    return this.utf8(s, (n) => this.uvarint(n + 1));
  }

  compactNullableString(s: string | null | undefined): this {
    return s == null ? this.uvarint(0) : this.compactString(s);
  }

  bytes(b: Uint8Array): this {
    return this.int32(b.length).raw(b);
  }

  nullableBytes(b: Uint8Array | null | undefined): this {
    return b == null ? this.int32(-1) : this.bytes(b);
  }

  compactBytes(b: Uint8Array): this {
    return this.uvarint(b.length + 1).raw(b);
  }

  compactNullableBytes(b: Uint8Array | null | undefined): this {
    return b == null ? this.uvarint(0) : this.compactBytes(b);
  }

  /** A UUID in Kafka's text form (URL-safe base64, 22 characters). */
  uuid(id: string): this {
    this.reserve(16);
    const n = this.buf.write(id, this.pos, 16, 'base64url');
    if (n !== 16 || id.length !== 22)
      throw new ProtocolError(`not a UUID in Kafka's base64 form: ${JSON.stringify(id)}`);
    this.pos += 16;
    return this;
  }

  /**
   * A tagged-field section: `known` lists the tags to write in ascending
   * order with a function that writes each value; unknown fields kept from
   * decoding are merged in tag order.
   */
  taggedFields(known: Array<[tag: number, write: (w: Writer) => void]>, unknown?: UnknownTaggedField[]): this {
    const all: Array<[number, Buffer]> = known.map(([tag, write]) => {
      const sub = new Writer(64);
      write(sub);
      return [tag, sub.toBuffer()];
    });
    if (unknown !== undefined) for (const u of unknown) all.push([u.tag, u.data]);
    if (unknown !== undefined && unknown.length > 0) all.sort((a, b) => a[0] - b[0]);
    this.uvarint(all.length);
    for (const [tag, data] of all) this.uvarint(tag).uvarint(data.length).raw(data);
    return this;
  }

  /** The written pieces, in order, for a vectored write. */
  chunks(): Buffer[] {
    this.flushScratch();
    return this.done.slice();
  }

  toBuffer(): Buffer {
    const parts = this.chunks();
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, this.doneLength);
  }
}
