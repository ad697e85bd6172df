/**
 * The records both tidemark and ProducerInterop.java write in the interop tests: keys, null keys, null and
 * empty values, multi-byte UTF-8, repeated and null headers, explicit timestamps. Must match the Java side.
 */
import type { ProducerRecord } from '../../../src/producer/record-input.js';

export function specKey(i: number): string | null {
  return i % 5 === 0 ? null : `key-${i}`;
}

export function specValue(i: number): string | null {
  if (i % 11 === 0) return null;
  if (i % 17 === 0) return '';
  return `value-${i}-`.repeat(1 + (i % 13)) + (i % 4 === 0 ? 'ünïcødé ✓' : '');
}

export function specHeaders(i: number): { key: string; value: string | null }[] {
  if (i % 3 === 0) return [];
  return [
    { key: 'h1', value: `x${i}` },
    { key: 'h2', value: null },
    { key: 'h1', value: 'dup' },
  ];
}

export function specTimestamp(i: number): number {
  return 1_700_000_000_000 + i * 1000;
}

export function specRecord(topic: string, i: number): ProducerRecord {
  return { topic, key: specKey(i), value: specValue(i), headers: specHeaders(i), timestamp: specTimestamp(i) };
}

/** A record as the tests compare it: bytes as base64 (null kept), headers in order. */
export interface ComparableRecord {
  partition: number;
  offset: bigint;
  timestamp: number;
  key: string | null;
  value: string | null;
  headers: [string, string | null][];
}

const b64 = (s: string | null) => (s === null ? null : Buffer.from(s, 'utf8').toString('base64'));

/** Record `i` of the spec as it must read back from `partition` at `offset`. */
export function expectedRecord(i: number, partition: number, offset: bigint): ComparableRecord {
  return {
    partition,
    offset,
    timestamp: specTimestamp(i),
    key: b64(specKey(i)),
    value: b64(specValue(i)),
    headers: specHeaders(i).map((h) => [h.key, b64(h.value)]),
  };
}
