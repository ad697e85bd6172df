import { describe, expect, it } from 'vitest';
import { encodeRecordBatch } from '../../../../codecs/records/index.js';
import { scanBatches } from '../../../../src/consumer/fetch/batch-scan.js';

const records = (n: number) => [...Array(n)].map((_, i) => ({ value: Buffer.from(`v${i}`) }));

describe('scanBatches', () => {
  it('finds where the next fetch starts and the last batch epoch, from headers only', () => {
    const a = encodeRecordBatch(records(3), { baseOffset: 100n, partitionLeaderEpoch: 4 });
    const b = encodeRecordBatch(records(5), { baseOffset: 103n, partitionLeaderEpoch: 6 });
    expect(scanBatches(Buffer.concat([a, b]))).toEqual({ nextOffset: 108n, lastEpoch: 6, batches: 2, corrupt: false });
  });

  it('skips a partial trailing batch, as a fetch cut at its size limit leaves one', () => {
    const a = encodeRecordBatch(records(3), { baseOffset: 0n });
    const b = encodeRecordBatch(records(3), { baseOffset: 3n });
    expect(scanBatches(Buffer.concat([a, b.subarray(0, 30)]))).toMatchObject({ nextOffset: 3n, batches: 1 });
    expect(scanBatches(b.subarray(0, 30))).toMatchObject({ nextOffset: undefined, batches: 0, corrupt: false });
  });

  it('flags headers that cannot be a batch (and keeps what came before)', () => {
    const a = encodeRecordBatch(records(2), { baseOffset: 0n });
    const bad = Buffer.from(encodeRecordBatch(records(2), { baseOffset: 2n }));
    bad[16] = 9; // magic
    expect(scanBatches(Buffer.concat([a, bad]))).toMatchObject({ nextOffset: 2n, batches: 1, corrupt: true });
    const tiny = Buffer.alloc(12);
    tiny.writeInt32BE(3, 8);
    expect(scanBatches(tiny)).toMatchObject({ corrupt: true });
  });
});

describe('scanBatches with offset bounds', () => {
  const bounds = (fetchOffset: bigint, limit: bigint) => ({ fetchOffset, limit, limitName: 'high watermark' });
  const a = encodeRecordBatch(records(3), { baseOffset: 100n });
  const b = encodeRecordBatch(records(5), { baseOffset: 103n });

  it('accepts batches from the one holding the fetch offset up to the high watermark', () => {
    expect(scanBatches(Buffer.concat([a, b]), bounds(101n, 108n)).implausible).toBeUndefined();
  });

  it('refuses a batch reaching past the high watermark of the same answer', () => {
    expect(scanBatches(Buffer.concat([a, b]), bounds(100n, 107n)).implausible).toMatch(
      /\[103, 108\) reaches past the high watermark 107/,
    );
  });

  it('refuses a first batch wholly below the fetch offset, and batches out of order', () => {
    expect(scanBatches(a, bounds(103n, 200n)).implausible).toMatch(/lies below the fetch offset 103/);
    expect(scanBatches(Buffer.concat([b, a]), bounds(103n, 200n)).implausible).toMatch(/below the batch before/);
  });

  it('refuses a base offset with a flipped high bit', () => {
    const flipped = Buffer.from(a);
    flipped[4] ^= 0x40; // base offset + 2^30
    expect(scanBatches(flipped, bounds(100n, 300n)).implausible).toMatch(/reaches past the high watermark 300/);
  });
});
