import { describe, expect, it } from 'vitest';
import {
  JavaHashMap,
  javaHashOrder,
  javaStringHash,
  topicPartitionHash,
} from '../../../../src/consumer/assignors/java-hash.js';

/** Expected values printed by Java 17 (`String.hashCode`, `HashMap.keySet()`, Kafka's `TopicPartition`). */
describe('Java hashing', () => {
  it('hashes strings like String.hashCode', () => {
    expect(javaStringHash('')).toBe(0);
    expect(javaStringHash('hello')).toBe(99162322);
    expect(javaStringHash('ü-topic')).toBe(1711486238);
    expect(javaStringHash('consumer-1-0f3a')).toBe(332829975);
    expect(javaStringHash('payments-v2')).toBe(-1539523300);
    expect(javaStringHash('Aa')).toBe(javaStringHash('BB'));
  });

  it("hashes partitions like Kafka's TopicPartition", () => {
    expect(topicPartitionHash('orders', 7)).toBe(-1008769153);
  });
});

describe('JavaHashMap iteration order', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `member-${i}`);

  it('matches HashMap across resizes', () => {
    expect(javaHashOrder(ids(40), javaStringHash)).toEqual(
      '19 18 17 39 16 38 5 15 37 6 14 36 3 13 35 4 12 34 9 11 33 10 32 7 31 8 30 29 28 27 26 25 24 23 22 21 20 1 2 0'
        .split(' ')
        .map((i) => `member-${i}`),
    );
  });

  it('matches HashMap after removals and re-insertions', () => {
    const m = new JavaHashMap<string, number>(javaStringHash);
    for (const id of ids(40)) m.set(id, 1);
    for (let i = 0; i < 40; i += 3) m.delete(`member-${i}`);
    m.set('member-0', 0);
    m.set('zz', 1);
    expect(m.keys()).toEqual(
      'zz 19 17 16 38 5 37 14 13 35 4 34 11 10 32 7 31 8 29 28 26 25 23 22 20 1 2 0'
        .split(' ')
        .map((i) => (i === 'zz' ? i : `member-${i}`)),
    );
  });

  it('keeps put order inside a bucket, and reverses it for computeIfAbsent', () => {
    const keys = ['AaAa', 'BBBB', 'x', 'AaBB', 'y', 'BBAa']; // all but x and y share one hash
    const put = new JavaHashMap<string, number>(javaStringHash);
    const computed = new JavaHashMap<string, number>(javaStringHash);
    for (const k of keys) {
      put.set(k, 1);
      computed.computeIfAbsent(k, () => 1);
    }
    expect(put.keys()).toEqual(['x', 'y', 'AaAa', 'BBBB', 'AaBB', 'BBAa']);
    expect(computed.keys()).toEqual(['x', 'y', 'BBAa', 'AaBB', 'BBBB', 'AaAa']);
  });

  it('orders a HashSet of partitions like Java', () => {
    const tps = Array.from({ length: 30 }, (_, p) => ({ topic: p % 2 === 0 ? 'orders' : 't1', partition: p }));
    const order = javaHashOrder(tps, (tp) => topicPartitionHash(tp.topic, tp.partition));
    expect(order.map((tp) => `${tp.topic}-${tp.partition}`).join(' ')).toBe(
      'orders-8 t1-29 orders-10 t1-27 orders-12 t1-25 orders-14 t1-23 orders-16 t1-21 orders-18 t1-19 t1-17 orders-20 ' +
        't1-15 orders-22 t1-13 orders-24 t1-11 orders-26 t1-9 orders-28 t1-7 t1-5 t1-3 t1-1 orders-0 orders-2 orders-4 orders-6',
    );
  });

  it('replaces a value in place and reports size', () => {
    const m = new JavaHashMap<string, number>(javaStringHash);
    m.set('a', 1).set('b', 2).set('a', 3);
    expect(m.size).toBe(2);
    expect(m.get('a')).toBe(3);
    expect(m.first()).toBe('a');
    expect(m.delete('a')).toBe(true);
    expect(m.delete('a')).toBe(false);
    expect(m.has('a')).toBe(false);
  });
});
