import { describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../../../../codecs/records/errors.js';
import { ControlRecordType, encodeControlBatch, encodeRecordBatch } from '../../../../codecs/records/index.js';
import { ChunkReader, type DecodeChunkOptions } from '../../../../src/consumer/fetch/chunk-reader.js';
import type { CompletedFetch } from '../../../../src/consumer/fetch/fetch-buffer.js';
import { PartitionState } from '../../../../src/consumer/positions.js';

const values = (prefix: string, n: number) => [...Array(n)].map((_, i) => ({ value: Buffer.from(`${prefix}${i}`) }));

function chunk(records: Buffer, aborted: { producerId: bigint; firstOffset: bigint }[] | null = null): CompletedFetch {
  return {
    state: new PartitionState('t', 3),
    generation: 0,
    records,
    fetchOffset: 0n,
    nextOffset: 0n,
    lastEpoch: 0,
    highWatermark: 0n,
    lastStableOffset: 0n,
    logStartOffset: 0n,
    abortedTransactions: aborted,
    corrupt: false,
    frame: undefined,
  };
}

const txn = (producerId: bigint, baseOffset: bigint, prefix: string, n: number) =>
  encodeRecordBatch(values(prefix, n), {
    baseOffset,
    producerId,
    producerEpoch: 0,
    transactional: true,
    partitionLeaderEpoch: 2,
  });
const marker = (producerId: bigint, baseOffset: bigint, type: number) =>
  encodeControlBatch({ type, producerId, producerEpoch: 0, baseOffset, partitionLeaderEpoch: 2 });

/** Every slice of a chunk, joined (slices of `sliceBytes`). */
function decodeChunk(c: CompletedFetch, position: bigint, options: DecodeChunkOptions, sliceBytes = 1 << 20) {
  const reader = new ChunkReader(c, options);
  const records = [];
  let at = position;
  for (;;) {
    const slice = reader.next(at, sliceBytes);
    records.push(...slice.records);
    at = slice.nextOffset;
    if (slice.error !== undefined) return { ...slice, records };
    if (reader.done) return { ...slice, records };
  }
}

describe('ChunkReader', () => {
  it('gives records with topic, partition, offset, leader epoch, and views of the fetched bytes', () => {
    const bytes = encodeRecordBatch(values('v', 3), { baseOffset: 40n, partitionLeaderEpoch: 7 });
    const { records, error } = decodeChunk(chunk(bytes), 40n, { checkCrc: true, readCommitted: false });
    expect(error).toBeUndefined();
    expect(records.map((r) => [r.topic, r.partition, r.offset, r.leaderEpoch, r.value?.toString()])).toEqual([
      ['t', 3, 40n, 7, 'v0'],
      ['t', 3, 41n, 7, 'v1'],
      ['t', 3, 42n, 7, 'v2'],
    ]);
    expect(records[0].value!.buffer).toBe(bytes.buffer);
    expect(records[2].nextOffset()).toBe(43n);
  });

  it('skips records before the position (a fetch may begin inside a batch)', () => {
    const bytes = encodeRecordBatch(values('v', 5), { baseOffset: 10n });
    const { records } = decodeChunk(chunk(bytes), 13n, { checkCrc: true, readCommitted: false });
    expect(records.map((r) => r.offset)).toEqual([13n, 14n]);
  });

  it('read_committed: drops aborted transactions and hides markers; read_uncommitted only hides markers', () => {
    const bytes = Buffer.concat([
      txn(1n, 0n, 'a', 2), // committed
      txn(2n, 2n, 'b', 2), // aborted
      marker(1n, 4n, ControlRecordType.commit),
      txn(2n, 5n, 'b', 1), // still in the aborted transaction
      marker(2n, 6n, ControlRecordType.abort),
      txn(2n, 7n, 'c', 1), // a new transaction of the same producer, committed later
      marker(2n, 8n, ControlRecordType.commit),
    ]);
    const aborted = [{ producerId: 2n, firstOffset: 2n }];
    const committed = decodeChunk(chunk(bytes, aborted), 0n, { checkCrc: true, readCommitted: true });
    expect(committed.records.map((r) => r.value?.toString())).toEqual(['a0', 'a1', 'c0']);
    const all = decodeChunk(chunk(bytes, aborted), 0n, { checkCrc: true, readCommitted: false });
    expect(all.records.map((r) => r.value?.toString())).toEqual(['a0', 'a1', 'b0', 'b1', 'b0', 'c0']);
  });

  it("a slice's records are exactly those shown, with no gaps where records were skipped or hidden", () => {
    const bytes = Buffer.concat([
      encodeRecordBatch(values('p', 4), { baseOffset: 0n }), // the position is inside this batch
      txn(2n, 4n, 'b', 3), // aborted
      marker(2n, 7n, ControlRecordType.abort),
      encodeRecordBatch(values('q', 2), { baseOffset: 8n }),
    ]);
    const reader = new ChunkReader(chunk(bytes, [{ producerId: 2n, firstOffset: 4n }]), {
      checkCrc: true,
      readCommitted: true,
    });
    const slice = reader.next(2n, 1 << 20);
    expect(slice.records.map((r) => r.value?.toString())).toEqual(['p2', 'p3', 'q0', 'q1']);
    expect(Object.keys(slice.records)).toHaveLength(slice.records.length);
    expect(slice.nextOffset).toBe(10n);
  });

  it('decodes a slice of whole batches at a time, each ending where the next begins', () => {
    const bytes = Buffer.concat([0n, 3n, 6n].map((b) => encodeRecordBatch(values('v', 3), { baseOffset: b })));
    const reader = new ChunkReader(chunk(bytes), { checkCrc: true, readCommitted: false });
    const first = reader.next(0n, 1);
    expect([first.records.map((r) => r.offset), first.nextOffset, reader.done]).toEqual([[0n, 1n, 2n], 3n, false]);
    const rest = reader.next(first.nextOffset, 1 << 20);
    expect([rest.records.map((r) => r.offset), rest.nextOffset, reader.done]).toEqual([
      [3n, 4n, 5n, 6n, 7n, 8n],
      9n,
      true,
    ]);
  });

  it('a slice also ends once its batches hold the records asked for, counted from their headers (compressed too)', () => {
    const bytes = Buffer.concat(
      [0n, 100n, 200n].map((b) => encodeRecordBatch(values('v', 100), { baseOffset: b, compression: 3 })),
    );
    const reader = new ChunkReader(chunk(bytes), { checkCrc: true, readCommitted: false });
    // 150 records: the first batch (100) is short of it, the second (200) reaches it; bytes would take all three.
    const first = reader.next(0n, 1 << 20, 150);
    expect([first.records.length, first.nextOffset, reader.done]).toEqual([200, 200n, false]);
    const rest = reader.next(first.nextOffset, 1 << 20, 150);
    expect([rest.records.length, rest.nextOffset, reader.done]).toEqual([100, 300n, true]);
  });

  it('a corrupt batch: the records before it, and the error naming it', () => {
    const good = encodeRecordBatch(values('g', 2), { baseOffset: 0n });
    const bad = Buffer.from(encodeRecordBatch(values('x', 2), { baseOffset: 2n }));
    bad[bad.length - 1] ^= 0xff;
    const { records, error, errorOffset } = decodeChunk(chunk(Buffer.concat([good, bad])), 0n, {
      checkCrc: true,
      readCommitted: false,
    });
    expect(records.map((r) => r.offset)).toEqual([0n, 1n]);
    expect(error).toBeInstanceOf(CorruptRecordError);
    expect(errorOffset).toBe(2n);
  });
});
