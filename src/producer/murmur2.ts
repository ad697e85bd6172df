/**
 * Kafka's murmur2, bit for bit as the Java client's `Utils.murmur2`, so that a keyed record lands on the same
 * partition whichever client wrote it. Java works in wrapping int32 arithmetic: `Math.imul` and `| 0` do the same.
 */
const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** The signed 32-bit murmur2 hash of `data`, as Java's `Utils.murmur2(byte[])` returns it. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = (SEED ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  // Java's switch falls through from the highest remaining byte down to the multiply.
  const rest = length & 3;
  if (rest === 3) h ^= data[whole + 2] << 16;
  if (rest >= 2) h ^= data[whole + 1] << 8;
  if (rest >= 1) {
    h ^= data[whole];
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** Java's `Utils.toPositive`: clears the sign bit (not Math.abs, which differs for negative numbers). */
export function toPositive(n: number): number {
  return n & 0x7fffffff;
}

/** The partition Kafka's default partitioner picks for a key: `toPositive(murmur2(key)) % numPartitions`. */
export function partitionForKey(key: Uint8Array, numPartitions: number): number {
  return toPositive(murmur2(key)) % numPartitions;
}
