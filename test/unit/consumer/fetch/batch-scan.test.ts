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
