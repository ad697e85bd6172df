import { gzipCompress } from '../../../codecs/compression/gzip.js';
import { crc32c } from '../../../codecs/crc.js';
import {
  ControlRecordType,
  encodeControlBatch,
  encodeRecordBatch,
  type RecordBatch,
  type RecordInput,
} from '../../../codecs/records/index.js';
import type { Rng } from '../../conformance/random.js';
import { specMessage } from '../codecs/records/spec-bytes.js';
import { text } from './random.js';

/**
 * Valid records sections (what a Fetch response carries per partition) for
 * the record-batch fuzz test: data batches in every codec this runtime can
 * write, with headers and null keys and values, transaction markers, and
 * legacy magic 0/1 messages, plain and compressed. Each section lists where
 * its entries are and which of their bytes the entry's CRC covers.
 */

export interface Entry {
  start: number;
  end: number;
  /** The bytes the entry's checksum covers: v2 from attributes on (CRC-32C), legacy from magic on (CRC-32). */
  coveredFrom: number;
}

export interface Section {
  name: string;
  bytes: Buffer;
  entries: Entry[];
  /** The records that went in, per entry, as `summary` shows them. */
  expected: string[][];
}

const V2_CRC_AT = 17;
const V2_ATTRIBUTES_AT = 21;
const V2_RECORDS_AT = 61;
const LEGACY_MAGIC_AT = 16;

function records(rand: Rng, n: number, baseTimestamp: number): RecordInput[] {
  return Array.from({ length: n }, (_, i) => ({
    key: rand.chance(0.3) ? null : text(rand, 10),
    value: rand.chance(0.1) ? null : rand.bytes(rand.between(0, 40)),
    headers: rand.chance(0.5)
      ? Array.from({ length: rand.between(1, 3) }, () => ({
          key: text(rand, 6),
          value: rand.chance(0.2) ? null : text(rand, 8),
        }))
      : [],
    timestamp: baseTimestamp + i * rand.between(0, 5000),
  }));
}

/** One record as a comparable line: offset, timestamp, key, value and headers in hex. */
export function summary(batch: RecordBatch): string[] {
  const hex = (b: Buffer | null) => (b === null ? 'null' : b.toString('hex'));
  return batch.records.map(
    (r) =>
      `${r.offset} ${r.timestamp} ${hex(r.key)} ${hex(r.value)} ${r.headers.map((h) => `${h.key}=${hex(h.value)}`).join(',')}`,
  );
}

function expectedOf(input: RecordInput[], baseOffset: bigint): string[] {
  const hex = (v: Uint8Array | string | null | undefined) =>
    v == null ? 'null' : Buffer.from(typeof v === 'string' ? Buffer.from(v) : v).toString('hex');
  return input.map(
    (r, i) =>
      `${baseOffset + BigInt(i)} ${r.timestamp} ${hex(r.key)} ${hex(r.value)} ${(r.headers ?? []).map((h) => `${h.key}=${hex(h.value)}`).join(',')}`,
  );
}

/**
 * A zstd frame of raw blocks: tidemark cannot compress zstd on Node 20, and
 * a raw frame is still a real frame for the decoder (header, content size,
 * block headers) to parse and fail on when mutated.
 */
function zstdRawFrame(content: Buffer): Buffer {
  if (content.length > 65791) throw new Error('zstdRawFrame: content too large for a 2-byte content size');
  // Frame header descriptor: single segment, content size in 1 byte (< 256) or 2 bytes (stored minus 256).
  const header =
    content.length < 256 ? [0x20, content.length] : [0x60, (content.length - 256) & 0xff, (content.length - 256) >> 8];
  const block = (content.length << 3) | 1; // last block, type raw
  return Buffer.concat([
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd, ...header, block & 0xff, (block >> 8) & 0xff, (block >> 16) & 0xff]),
    content,
  ]);
}

/** An uncompressed v2 batch rewritten with its records section as a zstd frame, length and CRC fixed up. */
function asZstdBatch(plain: Buffer): Buffer {
  const batch = Buffer.concat([plain.subarray(0, V2_RECORDS_AT), zstdRawFrame(plain.subarray(V2_RECORDS_AT))]);
  batch.writeInt32BE(batch.length - 12, 8);
  batch.writeInt16BE(batch.readInt16BE(V2_ATTRIBUTES_AT) | 4, V2_ATTRIBUTES_AT);
  batch.writeUInt32BE(crc32c(batch, V2_ATTRIBUTES_AT, batch.length), V2_CRC_AT);
  return batch;
}

class Builder {
  private readonly parts: Buffer[] = [];
  readonly entries: Entry[] = [];
  readonly expected: string[][] = [];
  private at = 0;

  add(bytes: Buffer, coveredOffset: number, expected: string[]): this {
    this.entries.push({ start: this.at, end: this.at + bytes.length, coveredFrom: this.at + coveredOffset });
    this.expected.push(expected);
    this.parts.push(bytes);
    this.at += bytes.length;
    return this;
  }

  v2(input: RecordInput[], baseOffset: bigint, compression: 0 | 1 | 2 | 3 | 'zstd'): this {
    const options = { baseOffset, compression: compression === 'zstd' ? 0 : compression, now: 1_700_000_000_000 };
    let bytes = encodeRecordBatch(input, options as Parameters<typeof encodeRecordBatch>[1]);
    if (compression === 'zstd') bytes = asZstdBatch(bytes);
    return this.add(bytes, V2_ATTRIBUTES_AT, expectedOf(input, baseOffset));
  }

  marker(baseOffset: bigint): this {
    const bytes = encodeControlBatch({
      type: ControlRecordType.commit,
      producerId: 7n,
      producerEpoch: 1,
      coordinatorEpoch: 3,
      baseOffset,
      timestamp: 1_700_000_000_000,
    });
    return this.add(bytes, V2_ATTRIBUTES_AT, [
      `${baseOffset} 1700000000000 00000001 000000000003 `, // control key (v0, commit) and EndTxnMarker (v0, epoch 3)
    ]);
  }

  build(name: string): Section {
    return { name, bytes: Buffer.concat(this.parts), entries: this.entries, expected: this.expected };
  }
}

/** Legacy messages: a magic 0 one, a magic 1 one, and a gzip-compressed magic 1 wrapper of two. */
function addLegacy(b: Builder, rand: Rng): void {
  const key = Buffer.from(text(rand, 5));
  const value = rand.bytes(12);
  b.add(specMessage({ offset: 10n, magic: 0, attributes: 0, key, value }), LEGACY_MAGIC_AT, [
    `10 -1 ${key.toString('hex')} ${value.toString('hex')} `,
  ]);
  b.add(specMessage({ offset: 11n, magic: 1, attributes: 0, timestamp: 1234n, key: null, value }), LEGACY_MAGIC_AT, [
    `11 1234 null ${value.toString('hex')} `,
  ]);
  const inner = Buffer.concat([
    specMessage({ offset: 0n, magic: 1, attributes: 0, timestamp: 50n, key: null, value: Buffer.from('a') }),
    specMessage({ offset: 1n, magic: 1, attributes: 0, timestamp: 60n, key: key, value: Buffer.from('b') }),
  ]);
  const wrapper = {
    offset: 13n,
    magic: 1 as const,
    attributes: 1,
    timestamp: 60n,
    key: null,
    value: gzipCompress(inner),
  };
  b.add(specMessage(wrapper), LEGACY_MAGIC_AT, [`12 50 null 61 `, `13 60 ${key.toString('hex')} 62 `]);
}

/** Every kind of section, with fresh random records. */
export function sections(rand: Rng): Section[] {
  const t = 1_700_000_000_000;
  const out: Section[] = [];
  for (const [name, codec] of [
    ['uncompressed', 0],
    ['gzip', 1],
    ['snappy', 2],
    ['lz4', 3],
    ['zstd', 'zstd'],
  ] as const) {
    out.push(
      new Builder()
        .v2(records(rand, rand.between(1, 5), t), 100n, codec)
        .marker(106n)
        .v2(records(rand, rand.between(1, 3), t), 107n, codec)
        .build(name),
    );
  }
  const legacy = new Builder();
  addLegacy(legacy, rand);
  out.push(legacy.v2(records(rand, 2, t), 14n, 0).build('legacy then v2'));
  return out;
}
