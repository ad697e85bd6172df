import { describe, expect, it } from 'vitest';
import type { PartitionMetadata } from '../../../src/cluster/metadata.js';
import { murmur2, partitionForKey, toPositive } from '../../../src/producer/murmur2.js';
import { StickyPartitioner } from '../../../src/producer/partitioner.js';

describe('murmur2', () => {
  // Kafka's own vectors: clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java, testMurmur2.
  const kafkaVectors: [string, number][] = [
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ];

  it.each(kafkaVectors)('murmur2(%j) is %d, as in Kafka', (input, hash) => {
    expect(murmur2(Buffer.from(input))).toBe(hash);
  });

  it('covers every tail length and high bytes (signed in Java)', () => {
    // Same function written over BigInt as a second opinion: no shared arithmetic tricks with the real one.
    const reference = (data: Uint8Array): number => {
      const mask = 0xffffffffn;
      const m = 0x5bd1e995n;
      const mul = (a: bigint, b: bigint) => (a * b) & mask;
      let h = (0x9747b28cn ^ BigInt(data.length)) & mask;
      const whole = data.length - (data.length % 4);
      for (let i = 0; i < whole; i += 4) {
        let k = BigInt(data[i] | (data[i + 1] << 8) | (data[i + 2] << 16)) + (BigInt(data[i + 3]) << 24n);
        k = mul(k, m);
        k ^= k >> 24n;
        k = mul(k, m);
        h = mul(h, m) ^ k;
      }
      const rest = data.length % 4;
      if (rest === 3) h ^= BigInt(data[whole + 2]) << 16n;
      if (rest >= 2) h ^= BigInt(data[whole + 1]) << 8n;
      if (rest >= 1) h = mul(h ^ BigInt(data[whole]), m);
      h ^= h >> 13n;
      h = mul(h, m);
      h ^= h >> 15n;
      return Number(BigInt.asIntN(32, h));
    };
    for (let len = 0; len < 40; len++) {
      const data = Buffer.alloc(len);
      for (let i = 0; i < len; i++) data[i] = (i * 97 + len * 31 + 200) & 0xff;
      expect(murmur2(data), `length ${len}`).toBe(reference(data));
    }
  });

  it('partitions like Java: toPositive (sign bit cleared, not abs) modulo the partition count', () => {
    expect(toPositive(-1)).toBe(0x7fffffff);
    expect(toPositive(-2147483648)).toBe(0);
    expect(partitionForKey(Buffer.from('21'), 7)).toBe((-973932308 & 0x7fffffff) % 7);
    // An empty key is a key: it hashes, it is not "no key".
    expect(partitionForKey(Buffer.alloc(0), 12)).toBe(toPositive(murmur2(Buffer.alloc(0))) % 12);
  });
});

function partitions(n: number, leaderless: number[] = []): PartitionMetadata[] {
  return Array.from({ length: n }, (_, partition) => ({
    partition,
    leader: leaderless.includes(partition) ? -1 : 1,
    leaderEpoch: 0,
    replicas: [1],
    isr: [1],
    offlineReplicas: [],
    error: undefined,
  }));
}

describe('StickyPartitioner (KIP-794)', () => {
  it('sticks to one partition until a batch worth of bytes has gone to it and the batch is full', () => {
    const ps = partitions(6);
    const sticky = new StickyPartitioner(1000, () => 0.5);
    const first = sticky.partition('t', ps);
    for (let i = 0; i < 9; i++) {
      expect(sticky.partition('t', ps)).toBe(first);
      sticky.onAppend('t', first, 100, false, ps);
    }
    // 900 bytes: still below the batch size, even with a full batch.
    sticky.onAppend('t', first, 50, true, ps);
    expect(sticky.partition('t', ps)).toBe(first);
    // Past the batch size but the batch is not full: wait for the batch boundary...
    sticky.onAppend('t', first, 100, false, ps);
    expect(sticky.partition('t', ps)).toBe(first);
    // ...which comes now.
    sticky.onAppend('t', first, 100, true, ps);
    expect(sticky.producedBytesForTest('t')).toBe(0);
  });

  it('switches at twice the batch size whatever the batches', () => {
    const ps = partitions(4);
    let r = 0;
    const sticky = new StickyPartitioner(100, () => [0.1, 0.9][r++ % 2]);
    const first = sticky.partition('t', ps);
    sticky.onAppend('t', first, 199, false, ps);
    expect(sticky.partition('t', ps)).toBe(first);
    sticky.onAppend('t', first, 1, false, ps);
    expect(sticky.partition('t', ps)).not.toBe(first);
  });

  it('chooses among partitions with a leader, and spreads evenly over many switches', () => {
    const ps = partitions(5, [1, 3]);
    const sticky = new StickyPartitioner(10);
    const counts = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const p = sticky.partition('t', ps);
      counts.set(p, (counts.get(p) ?? 0) + 1);
      sticky.onAppend('t', p, 10, true, ps);
    }
    expect([...counts.keys()].sort()).toEqual([0, 2, 4]);
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
  });

  it('keeps a separate choice per topic, and ignores appends to other partitions', () => {
    const ps = partitions(8);
    const sticky = new StickyPartitioner(10, () => 0.99);
    const a = sticky.partition('a', ps);
    sticky.onAppend('a', (a + 1) % 8, 1000, true, ps);
    expect(sticky.partition('a', ps)).toBe(a);
    expect(sticky.partition('b', partitions(2))).toBe(1);
  });
});
