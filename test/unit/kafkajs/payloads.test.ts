/**
 * The facade's consumed shapes against kafkajs 2.2.4's own record-batch decoder as the oracle: the same bytes
 * decoded by kafkajs and by tidemark (then turned into kafkajs's message by src/kafkajs/payloads.ts) give equal
 * key, value, string offset, string timestamp, attributes and headers object. The lazily made fields (offset,
 * timestamp, headers) read the same as eager ones would, are kept once made (a handler's edit sticks), and show
 * in JSON and `inspect`; the Batch's arithmetic matches kafkajs's definitions.
 */
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decodeRecords } from '../../../codecs/records/decode.js';
import type { RecordInput } from '../../../codecs/records/encode-records.js';
import { encodeRecordBatch } from '../../../codecs/records/index.js';
import { ConsumerRecord, RecordSource } from '../../../src/consumer/consumer-record.js';
import type { ConsumerBatch } from '../../../src/index.js';
import { batchOf, messageOf } from '../../../src/kafkajs/payloads.js';

const require = createRequire(import.meta.url);
const KafkajsDecoder = require('kafkajs/src/protocol/decoder');
const decodeKafkajsBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (
  decoder: unknown,
) => Promise<{ records: Record<string, unknown>[] }>;

const INPUTS: RecordInput[] = [
  { key: 'k0', value: 'v0', timestamp: 1_700_000_000_123 },
  { key: null, value: 'no key', timestamp: 1_700_000_000_124 },
  { key: 'tomb', value: null, timestamp: 1_700_000_000_125, headers: [{ key: 'h', value: Buffer.from('x') }] },
  {
    value: 'repeated headers',
    timestamp: 1_700_000_000_126,
    headers: [
      { key: 'multi', value: Buffer.from('a') },
      { key: 'one', value: Buffer.from('1') },
      { key: 'multi', value: Buffer.from('b') },
      { key: 'multi', value: Buffer.from('c') },
    ],
  },
];
const BASE_OFFSET = 9_007_199_254_740_990n; // past 2^53: the string offsets must be exact

function coreRecords(bytes: Buffer): ConsumerRecord[] {
  const [batch] = decodeRecords(bytes).batches;
  const source = new RecordSource('t', 3, batch.partitionLeaderEpoch);
  return batch.records.map((r) => new ConsumerRecord(source, r));
}

const pick = (m: Record<string, unknown>) => ({
  key: m.key,
  value: m.value,
  timestamp: m.timestamp,
  attributes: m.attributes,
  offset: m.offset,
  headers: m.headers,
});

describe('tidemark/kafkajs messages', () => {
  const bytes = encodeRecordBatch(INPUTS, { baseOffset: BASE_OFFSET });

  it('equal kafkajs 2.2.4 decoding the same record batch, field by field', async () => {
    const theirs = (await decodeKafkajsBatch(new KafkajsDecoder(bytes))).records.map(pick);
    const ours = coreRecords(bytes).map((r) => pick(messageOf(r) as unknown as Record<string, unknown>));
    expect(ours).toEqual(theirs);
    expect(ours.map((m) => m.offset)).toEqual([
      '9007199254740990',
      '9007199254740991',
      '9007199254740992',
      '9007199254740993',
    ]);
    expect(ours[3].headers).toEqual({
      multi: [Buffer.from('a'), Buffer.from('b'), Buffer.from('c')],
      one: Buffer.from('1'),
    });
  });

  it('keeps a lazily made field once made: an edit to headers, offset or timestamp sticks', () => {
    const m = messageOf(coreRecords(bytes)[2]);
    m.headers.added = 'by the handler';
    expect(m.headers).toEqual({ h: Buffer.from('x'), added: 'by the handler' });
    expect(m.headers).toBe(m.headers);
    m.offset = '42';
    m.timestamp = '7';
    expect([m.offset, m.timestamp]).toEqual(['42', '7']);
  });

  it('shows every field in JSON and inspect, as a plain kafkajs message would', () => {
    const m = messageOf(coreRecords(bytes)[0]);
    const plain = {
      key: Buffer.from('k0'),
      value: Buffer.from('v0'),
      timestamp: '1700000000123',
      attributes: 0,
      offset: '9007199254740990',
      headers: {},
    };
    expect(JSON.parse(JSON.stringify(m))).toEqual(JSON.parse(JSON.stringify(plain)));
    expect(inspect(m)).toBe(inspect(plain));
  });
});

describe('tidemark/kafkajs Batch', () => {
  const batch = (records: ConsumerRecord[], highWatermark: bigint): ConsumerBatch =>
    ({ topic: 't', partition: 3, records, highWatermark }) as unknown as ConsumerBatch;

  it("has kafkajs's offsets and lag arithmetic, and builds its messages once", () => {
    const b = batchOf(batch(coreRecords(encodeRecordBatch(INPUTS, { baseOffset: 100n })), 110n));
    expect([b.topic, b.partition, b.highWatermark, b.isEmpty()]).toEqual(['t', 3, '110', false]);
    expect([b.firstOffset(), b.lastOffset(), b.offsetLag(), b.offsetLagLow()]).toEqual(['100', '103', '6', '9']);
    expect(b.messages.map((m) => m.offset)).toEqual(['100', '101', '102', '103']);
    expect(b.messages).toBe(b.messages);
  });

  it('an empty batch: no first offset, the last is the high watermark minus one, no lag', () => {
    const b = batchOf(batch([], 50n));
    expect([b.isEmpty(), b.firstOffset(), b.lastOffset(), b.offsetLag(), b.offsetLagLow()]).toEqual([
      true,
      null,
      '49',
      '0',
      '0',
    ]);
    expect(b.messages).toEqual([]);
  });
});
