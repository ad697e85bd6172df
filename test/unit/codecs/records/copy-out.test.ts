import { describe, expect, it } from 'vitest';
import { CompressionCodec } from '../../../../codecs/compression/codec.js';
import { lz4Compress } from '../../../../codecs/compression/index.js';
import { decodeRecords, encodeRecordBatch } from '../../../../codecs/records/index.js';
import type { KafkaRecord } from '../../../../codecs/records/types.js';
import { specMessage } from './spec-bytes.js';

/**
 * `copyOut` (codecs/records/decode-batch.ts): a consumer with default options reads responses into reused memory
 * and decodes with it, so no key, value or header value may still lie in the bytes decoded once they are
 * overwritten. Every kind of entry a fetch can return is here: plain and compressed v2 batches (with headers),
 * and plain and compressed legacy messages.
 */

/** Each record's key, value and header values, in order, as bytes of their own (null stays null). */
function fieldsOf(records: readonly KafkaRecord[]): (Buffer | null)[] {
  const out: (Buffer | null)[] = [];
  for (const r of records) {
    out.push(r.key, r.value);
    for (const h of r.headers) out.push(h.value);
  }
  return out.map((b) => (b === null ? null : Buffer.from(b)));
}

function wire(): Buffer {
  const plain = encodeRecordBatch(
    [
      { key: 'k0', value: 'v0', headers: [{ key: 'h', value: 'header value 0' }] },
      { key: null, value: 'x'.repeat(5000), headers: [{ key: 'n', value: null }] },
      { key: 'k2', value: null },
    ],
    { baseOffset: 0n },
  );
  const compressed = encodeRecordBatch(
    [{ key: 'c0', value: 'compressed value', headers: [{ key: 'h', value: 'compressed header' }] }],
    { baseOffset: 3n, compression: CompressionCodec.lz4 },
  );
  const legacyV0 = specMessage({
    offset: 4n,
    magic: 0,
    attributes: 0,
    key: Buffer.from('lk'),
    value: Buffer.from('lv0'),
  });
  const legacyV1 = specMessage({
    offset: 5n,
    magic: 1,
    attributes: 0,
    key: null,
    value: Buffer.from('lv1'),
    timestamp: 7n,
  });
  const inner = Buffer.concat(
    [0n, 1n].map((o) =>
      specMessage({ offset: o, magic: 1, attributes: 0, key: null, value: Buffer.from(`inner ${o}`), timestamp: 8n }),
    ),
  );
  const wrapper = specMessage({
    offset: 7n,
    magic: 1,
    attributes: 3,
    key: null,
    value: lz4Compress(inner, 1),
    timestamp: 8n,
  });
  return Buffer.concat([plain, compressed, legacyV0, legacyV1, wrapper]);
}

describe('decodeRecords with copyOut', () => {
  it('returns keys, values and headers that keep their bytes when the decoded buffer is overwritten', () => {
    const bytes = wire();
    const expected = fieldsOf(decodeRecords(Buffer.from(bytes)).batches.flatMap((b) => b.records));
    const views = decodeRecords(bytes).batches.flatMap((b) => b.records);
    const copies = decodeRecords(bytes, { copyOut: true }).batches.flatMap((b) => b.records);
    expect(copies.map((r) => r.offset)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
    // Headers are decoded on first read: read the views' now, as an application would have, before the overwrite.
    for (const r of views) void r.headers;
    bytes.fill(0xa5);
    expect(fieldsOf(copies)).toEqual(expected);
    // The control: without copyOut, the plain batch's and messages' fields lie in the overwritten bytes.
    expect(fieldsOf(views)).not.toEqual(expected);
    for (const r of copies) {
      for (const field of [r.key, r.value, ...r.headers.map((h) => h.value)]) {
        if (field !== null) expect(field.buffer).not.toBe(bytes.buffer);
      }
    }
  });

  it('decodes the same records as without it', () => {
    const bytes = wire();
    const strip = (records: readonly KafkaRecord[]) =>
      records.map((r) => ({
        offset: r.offset,
        timestamp: r.timestamp,
        fields: fieldsOf([r]),
        headers: r.headers.map((h) => h.key),
      }));
    const plain = decodeRecords(bytes).batches;
    const copied = decodeRecords(bytes, { copyOut: true }).batches;
    expect(copied.map((b) => [b.baseOffset, b.magic, b.compression])).toEqual(
      plain.map((b) => [b.baseOffset, b.magic, b.compression]),
    );
    expect(strip(copied.flatMap((b) => b.records))).toEqual(strip(plain.flatMap((b) => b.records)));
  });
});
