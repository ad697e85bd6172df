/**
 * A small seeded PRNG (mulberry32): the same seed gives the same messages on
 * every machine and Node version, so a failing message can be reproduced
 * from the seed printed with it.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 2 ** 32;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.next() & 0xff;
    return b;
  }
}

/** A seed derived from a base seed and labels (FNV-1a), so each message has its own reproducible stream. */
export function seedFor(base: number, ...labels: (string | number)[]): number {
  let h = (0x811c9dc5 ^ base) >>> 0;
  for (const ch of labels.join('/')) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The generator's floats in [0, 1) as a plain function, for code that takes a `() => number` (fault schedules). */
export function seededRandom(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.float();
}
