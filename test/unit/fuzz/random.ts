import { Rng, seedFor } from '../../conformance/random.js';

/**
 * The fuzz tests' source of randomness: a seeded generator, so every run of
 * `npm test` tries the same cases and a failure names a case that can be
 * replayed. `TIDEMARK_FUZZ_RUNS=N` multiplies the number of cases (and moves
 * the seeds, so a long run explores cases the default run does not).
 *
 * Our own generator rather than fast-check: the inputs are bytes derived
 * from the protocol definitions, which fast-check's arbitraries would not
 * describe better, and its shrinking matters little when every failing case
 * is printed with its seed, version and bytes.
 */

/** How many times the default number of cases each test runs (TIDEMARK_FUZZ_RUNS, default 1). */
export const FUZZ_SCALE = Math.max(1, Number.parseInt(process.env.TIDEMARK_FUZZ_RUNS ?? '1', 10) || 1);

/**
 * The generator for one fuzz case family: conformance's seeded mulberry32
 * (test/conformance/random.ts), its seed moved by TIDEMARK_FUZZ_RUNS so a
 * longer run explores cases the default run does not.
 */
export function fuzzRng(seed: number): Rng {
  return new Rng(FUZZ_SCALE > 1 ? seedFor(seed, FUZZ_SCALE) : seed);
}

/** Text of printable ASCII and a few multi-byte characters (valid UTF-16, so it survives UTF-8). */
export function text(rand: Rng, maxLength: number): string {
  const n = rand.between(0, maxLength);
  let s = '';
  for (let i = 0; i < n; i++) {
    s += rand.chance(0.9) ? String.fromCharCode(rand.between(0x20, 0x7e)) : rand.pick(['é', '€', '𝄞', 'ß']);
  }
  return s;
}

/** Values that make lengths and counts hostile: negative, zero, one past, huge. */
const HOSTILE_INT32 = [-2, -1, 0x7fffffff, 0x7ffffff0, 0x10000, 0x80000000 | 0];

/**
 * One mutation of `valid`: a flipped bit, a random byte or run of bytes, a
 * hostile int32 or varint written over the bytes at some position, bytes
 * inserted or deleted. Never modifies `valid` itself.
 */
export function mutate(valid: Buffer, rand: Rng): Buffer {
  if (valid.length === 0) return rand.bytes(rand.between(1, 8));
  const b = Buffer.from(valid);
  const at = rand.between(0, b.length - 1);
  switch (rand.between(0, 5)) {
    case 0:
      b[at] ^= 1 << rand.between(0, 7);
      return b;
    case 1:
      b[at] = rand.between(0, 255);
      return b;
    case 2: {
      const n = rand.between(2, 8);
      for (let i = at; i < Math.min(b.length, at + n); i++) b[i] = rand.between(0, 255);
      return b;
    }
    case 3: {
      const v = Buffer.alloc(4);
      v.writeInt32BE(rand.pick(HOSTILE_INT32));
      v.copy(b, at, 0, Math.min(4, b.length - at));
      return b;
    }
    case 4: {
      // A 5-byte varint (0xffffffff, or with the continuation bit left on).
      const v = Buffer.from([0xff, 0xff, 0xff, 0xff, rand.chance(0.5) ? 0x0f : 0xff]);
      v.copy(b, at, 0, Math.min(5, b.length - at));
      return b;
    }
    default:
      return rand.chance(0.5)
        ? Buffer.concat([b.subarray(0, at), rand.bytes(rand.between(1, 4)), b.subarray(at)])
        : Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + rand.between(1, 4)))]);
  }
}

/** `count` mutations of `valid`, some of them stacked (2-4 mutations in one input). */
export function mutations(valid: Buffer, rand: Rng, count: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    let b = mutate(valid, rand);
    if (rand.chance(0.25)) for (let j = rand.between(1, 3); j > 0; j--) b = mutate(b, rand);
    out.push(b);
  }
  return out;
}

/** Every proper prefix of `valid`, the empty one included. */
export function truncations(valid: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let cut = 0; cut < valid.length; cut++) out.push(valid.subarray(0, cut));
  return out;
}
