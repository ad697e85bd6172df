/**
 * ProducerBatch writes each record into its buffer when it is appended (batch-records.ts): the bytes it sends
 * must decode to the records appended, a split (MESSAGE_TOO_LARGE) must rewrite both halves correctly, and each
 * record must still settle on its own, with its metadata or its error.
 */
import { describe, expect, it } from 'vitest';
import { decodeRecords } from '../../../codecs/records/index.js';
import { BATCH_OVERHEAD, type PendingRecord, ProducerBatch, type RecordMetadata } from '../../../src/producer/batch.js';
import { joinGroup, SendGroup } from '../../../src/producer/send-group.js';

interface Outcome {
  metadata?: RecordMetadata;
  err?: Error;
}

/** A record with a real promise, as send() gives it: its outcome is filled in once the promise settles. */
function record(i: number, timestamp: number, outcomes: Promise<Outcome>[]): PendingRecord {
  let resolve: PendingRecord['resolve'] = () => {};
  let reject: PendingRecord['reject'] = () => {};
  outcomes.push(
    new Promise<RecordMetadata>((res, rej) => {
      resolve = res;
      reject = rej;
    }).then(
      (metadata): Outcome => ({ metadata }),
      (err: Error): Outcome => ({ err }),
    ),
  );
  return {
    topic: 't',
    partition: 3,
    key: i % 3 === 0 ? null : Buffer.from(`key-${i}`),
    value: i % 4 === 1 ? null : Buffer.alloc(20 + i * 7, 65 + (i % 26)),
    headers:
      i % 5 === 2
        ? [
            { key: 'h', value: Buffer.from(`hv${i}`) },
            { key: 'empty', value: null },
          ]
        : [],
    timestamp,
    size: 60 + i * 7,
    settings: undefined,
    resolve,
    reject,
    group: undefined,
    index: 0,
  };
}

function decoded(buf: Buffer) {
  const { batches } = decodeRecords(buf, { topic: 't', partition: 3 });
  expect(batches).toHaveLength(1);
  return batches[0];
}

const T0 = 1_700_000_000_000;
// Timestamps that go back and forth: deltas from the first record may be negative.
const timestamps = [T0, T0 + 5, T0 - 3, T0 + 200_000, T0 + 1, T0 + 1, T0 + 70_000, T0 - 90_000, T0 + 9];

function filled(outcomes: Promise<Outcome>[]): ProducerBatch {
  const batch = new ProducerBatch('t', 3, 0);
  for (const [i, ts] of timestamps.entries()) expect(batch.tryAppend(record(i, ts, outcomes), 1 << 20)).toBe(true);
  return batch;
}

describe('ProducerBatch', () => {
  it('sends the records appended: keys, values, headers, timestamps, offset deltas and idempotence fields', () => {
    const batch = filled([]);
    batch.setProducerState(77n, 2, 40);
    const b = decoded(batch.encode(0, undefined));
    expect(b.producerId).toBe(77n);
    expect(b.baseSequence).toBe(40);
    expect(b.maxTimestamp).toBe(T0 + 200_000);
    expect(b.records.map((r) => r.offsetDelta)).toEqual(timestamps.map((_, i) => i));
    expect(b.records.map((r) => r.timestamp)).toEqual(timestamps);
    for (const [i, r] of b.records.entries()) {
      const want = record(i, 0, []);
      expect(r.key).toEqual(want.key);
      expect(r.value).toEqual(want.value);
      expect(r.headers.map((h) => [h.key, h.value])).toEqual(want.headers.map((h) => [h.key, h.value]));
    }
  });

  it('compresses the same records (gzip; lz4 written after the header room), patches the sequence with a valid CRC', () => {
    const lz4 = decoded(filled([]).encode(3, undefined));
    expect(lz4.records.map((r) => r.timestamp)).toEqual(timestamps);
    expect(lz4.records.map((r) => r.value)).toEqual(timestamps.map((_, i) => record(i, 0, []).value));
    const batch = filled([]);
    const bytes = batch.encode(1, undefined);
    batch.setProducerState(5n, 0, 1000);
    const b = decoded(bytes);
    expect(b.baseSequence).toBe(1000);
    expect(b.records.map((r) => r.value?.length ?? -1)).toEqual(
      timestamps.map((_, i) => (i % 4 === 1 ? -1 : 20 + i * 7)),
    );
  });

  it('splits into halves that decode to the same records, rewritten from offset delta 0, sharing the reserved bytes', async () => {
    const pending: Promise<Outcome>[] = [];
    const batch = filled(pending);
    batch.encode(0, undefined);
    const [first, second] = batch.split();
    expect([first.recordCount, second.recordCount]).toEqual([5, 4]);
    expect(first.reservedBytes + second.reservedBytes).toBe(batch.reservedBytes);
    const a = decoded(first.encode(0, undefined));
    const b = decoded(second.encode(0, undefined));
    expect([...a.records, ...b.records].map((r) => r.timestamp)).toEqual(timestamps);
    expect(b.records.map((r) => r.offsetDelta)).toEqual([0, 1, 2, 3]);
    expect(b.baseTimestamp).toBe(timestamps[5]);
    expect(b.records[0].value).toEqual(record(5, 0, []).value);
    expect(b.records[2].headers).toHaveLength(2);
    // Each half settles its own records: offsets from its own base offset.
    first.complete(100n, -1n);
    second.fail(new Error('too large'));
    const outcomes = await Promise.all(pending);
    expect(outcomes.slice(0, 5).map((o) => o.metadata?.offset)).toEqual([100n, 101n, 102n, 103n, 104n]);
    expect(outcomes[2].metadata).toEqual({ topic: 't', partition: 3, offset: 102n, timestamp: T0 - 3 });
    expect(outcomes.slice(5).map((o) => o.err?.message)).toEqual(['too large', 'too large', 'too large', 'too large']);
    expect(batch.done).toBe(true);
  });

  it("settles sendBatch() records through their group, LogAppendTime replacing each record's timestamp", async () => {
    const settled = new Promise<RecordMetadata[]>((resolve, reject) => {
      const group = new SendGroup(2, resolve, reject);
      const batch = new ProducerBatch('t', 3, 0);
      for (const i of [0, 1]) {
        const r = record(i, T0 + i, []);
        joinGroup(r, group, i);
        batch.tryAppend(r, 1 << 20);
      }
      batch.complete(-1n, BigInt(T0 + 50));
    });
    expect(await settled).toEqual([
      { topic: 't', partition: 3, offset: -1n, timestamp: T0 + 50 },
      { topic: 't', partition: 3, offset: -1n, timestamp: T0 + 50 },
    ]);
  });

  it('keeps each record its own timestamp and settler when sends and grouped records mix, split or not', async () => {
    // Runs of equal timestamps (as sends within one millisecond make) and grouped records after plain sends.
    const stamps = [T0, T0, T0, T0 + 1, T0 + 1, T0 - 4, T0 - 4, T0, T0 + 9, T0 + 9];
    const grouped = new Set([3, 4, 7, 8]);
    const run = (split: boolean) => {
      const pending: Promise<Outcome>[] = [];
      const batch = new ProducerBatch('t', 3, 0);
      const groupResults = new Promise<RecordMetadata[]>((resolve, reject) => {
        const group = new SendGroup(grouped.size, resolve, reject);
        let inGroup = 0;
        for (const [i, ts] of stamps.entries()) {
          const r = record(i, ts, pending);
          if (grouped.has(i)) joinGroup(r, group, inGroup++);
          batch.tryAppend(r, 1 << 20);
        }
      });
      const halves = split ? batch.split() : [batch];
      let base = 0n;
      for (const half of halves) {
        const count = half.recordCount;
        half.complete(500n + base, -1n);
        base += BigInt(count);
      }
      return { pending, groupResults };
    };
    for (const split of [false, true]) {
      const { pending, groupResults } = run(split);
      // A grouped record's own promise (made by record()) never settles: its group does.
      const outcomes = await Promise.all(pending.map((o, i) => (grouped.has(i) ? ({} as Outcome) : o)));
      for (const [i, ts] of stamps.entries()) {
        if (grouped.has(i)) continue;
        expect(outcomes[i].metadata).toEqual({ topic: 't', partition: 3, offset: 500n + BigInt(i), timestamp: ts });
      }
      expect((await groupResults).map((m) => [m.offset, m.timestamp])).toEqual(
        [...grouped].map((i) => [500n + BigInt(i), stamps[i]]),
      );
    }
  });

  it('rejects through the error mapping a transactional producer sets', async () => {
    const pending: Promise<Outcome>[] = [];
    const batch = filled(pending);
    batch.recordError = (err) => new Error(`mapped: ${err.message}`);
    batch.fail(new Error('fenced'));
    const outcomes = await Promise.all(pending);
    expect(new Set(outcomes.map((o) => o.err?.message))).toEqual(new Set(['mapped: fenced']));
    expect(batch.reservedBytes).toBe(batch.bytes - BATCH_OVERHEAD);
  });
});
