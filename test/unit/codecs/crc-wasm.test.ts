import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cImplementation, crc32cJs, crc32cReference, TABLES } from '../../../codecs/crc.js';
import {
  CRC32C_RELAXED_WASM_BASE64,
  CRC32C_SCALAR_WASM_BASE64,
  CRC32C_WASM_BASE64,
  makeWasmCrc32c,
} from '../../../codecs/crc32c-wasm.js';
import { assembleWat } from '../../../scripts/wat-assemble.js';
import { Rng } from '../../conformance/random.js';

/** Seeded random bytes (the tests' shared generator), so a failure reproduces. */
function randomBytes(n: number, seed: number): Buffer {
  return new Rng(seed).bytes(n);
}

/** [start, end) of random buffers of every length 0-300 at random offsets of `pool` (4 per length). */
function shortRanges(pool: Buffer): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let seed = 12345;
  for (let len = 0; len <= 300; len++) {
    for (let k = 0; k < 4; k++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const start = seed % (pool.length - len);
      out.push([start, start + len]);
    }
  }
  return out;
}

/** [start, end) of random lengths 0-300 000 at random odd offsets of `pool`, plus the loops' edge lengths. */
function longRanges(): Array<[number, number]> {
  let seed = 777;
  const next = (bound: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % bound;
  };
  // Random lengths, plus the edges of the 1 KiB SIMD block, the 16-byte step and the 64 KiB copy chunk.
  const edges = [1023, 1024, 1025, 1039, 1040, 2047, 2048, 2049, 65535, 65536, 65537, 65536 + 1024, 131072 + 17];
  const lengths = [...edges, ...Array.from({ length: 120 }, () => next(300_001))];
  return lengths.map((len) => {
    const start = next(2048) | 1;
    return [start, start + len];
  });
}

const SHORT_POOL = randomBytes(4096, 0x5eed);
const LONG_POOL = randomBytes(300_000 + 4096, 0xc0ffee);

/** The WebAssembly global, typed here (the project compiles without the DOM lib that declares it). */
const WASM = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;

describe('CRC-32C in WebAssembly', () => {
  it.each([
    ['codecs/crc32c.wat', false, CRC32C_WASM_BASE64],
    ['codecs/crc32c.wat', true, CRC32C_RELAXED_WASM_BASE64],
    ['codecs/crc32c-scalar.wat', false, CRC32C_SCALAR_WASM_BASE64],
  ])('embeds exactly the assembly of %s (relaxed swizzle: %s)', (file, relaxedSwizzle, embedded) => {
    const wat = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
    expect(Buffer.from(assembleWat(wat, { relaxedSwizzle })).toString('base64')).toBe(embedded);
  });

  it('indexes every swizzle of crc32c.wat with a nibble, so the relaxed assembly computes the same bytes', () => {
    // i8x16.relaxed_swizzle leaves indices >= 16 to the runtime; every lookup here is by `$lo` or `$hi`, which
    // are set only as `... local.get $m v128.and` with $m the splat of 0x0f.
    const wat = readFileSync(new URL('../../../codecs/crc32c.wat', import.meta.url), 'utf8');
    const code = wat.replace(/;;.*$/gm, '');
    const lookups = [...code.matchAll(/local\.get \$(\w+)\s+i8x16\.swizzle/g)].map((m) => m[1]);
    expect(lookups.length).toBeGreaterThan(0);
    expect(new Set(lookups)).toEqual(new Set(['lo', 'hi']));
    const sets = [...code.matchAll(/(\S+)\s+local\.(?:set|tee) \$(lo|hi)\b/g)].map((m) => m[1]);
    expect(sets.length).toBeGreaterThan(0);
    expect(sets.every((before) => before === 'v128.and')).toBe(true);
    expect(code).toMatch(/i32\.const 15\s+i8x16\.splat\s+local\.set \$m/);
  });

  it('is the implementation crc32c runs on Node', () => {
    expect(crc32cImplementation).toBe('wasm');
  });

  it('matches the RFC 3720 (iSCSI) CRC-32C test vectors', () => {
    const inc = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
    const dec = Buffer.from(Array.from({ length: 32 }, (_, i) => 31 - i));
    for (const f of [crc32c, crc32cJs]) {
      expect(f(Buffer.alloc(32))).toBe(0x8a9136aa);
      expect(f(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
      expect(f(inc)).toBe(0x46dd794e);
      expect(f(dec)).toBe(0x113fdb5c);
      expect(f(Buffer.from('123456789'))).toBe(0xe3069283);
      expect(f(Buffer.alloc(0))).toBe(0);
    }
  });

  it('agrees with the reference and the JS loop on random buffers of every length 0-300 at random offsets', () => {
    for (const [start, end] of shortRanges(SHORT_POOL)) {
      const expected = crc32cReference(SHORT_POOL.subarray(start, end));
      expect(crc32c(SHORT_POOL, start, end)).toBe(expected);
      expect(crc32cJs(SHORT_POOL, start, end)).toBe(expected);
      expect(crc32c(SHORT_POOL.subarray(start, end))).toBe(expected);
    }
  });

  it('agrees with the reference on random lengths 0-300 000 at random odd offsets (SIMD blocks and their tails)', () => {
    for (const [start, end] of longRanges()) {
      const expected = crc32cReference(LONG_POOL.subarray(start, end));
      expect(crc32c(LONG_POOL, start, end), `length ${end - start} at ${start}`).toBe(expected);
      expect(crc32cJs(LONG_POOL, start, end), `JS, length ${end - start} at ${start}`).toBe(expected);
    }
  });

  it('carries the state across its 64 KiB copy chunks', () => {
    const big = randomBytes(3 * 65536 + 777, 99);
    for (const [start, end] of [
      [0, big.length],
      [1, 65537],
      [3, 65536 * 2 + 5],
      [65535, big.length - 1],
    ]) {
      expect(crc32c(big, start, end)).toBe(crc32cReference(big.subarray(start, end)));
    }
  });
});

/** Whether this runtime compiles the relaxed SIMD module (Node 20 does not; Node 24, Bun and Deno do). */
const relaxedCompiles = (() => {
  try {
    new WASM.Module(Buffer.from(CRC32C_RELAXED_WASM_BASE64, 'base64'));
    return true;
  } catch {
    return false;
  }
})();

describe('CRC-32C in WebAssembly with relaxed SIMD', () => {
  // Skipped where the runtime has no relaxed SIMD (Node 20): there the plain SIMD module, tested above, runs.
  it.skipIf(!relaxedCompiles)('agrees with the reference on the random inputs, and is what crc32c runs', () => {
    const relaxed = makeWasmCrc32c(TABLES, { modules: ['relaxed'] });
    expect(relaxed).toBeDefined();
    if (relaxed === undefined) return;
    for (const [start, end] of shortRanges(SHORT_POOL)) {
      expect(relaxed(SHORT_POOL, start, end)).toBe(crc32cReference(SHORT_POOL.subarray(start, end)));
    }
    for (const [start, end] of longRanges()) {
      const expected = crc32cReference(LONG_POOL.subarray(start, end));
      expect(relaxed(LONG_POOL, start, end), `length ${end - start} at ${start}`).toBe(expected);
    }
    const compiled: Buffer[] = [];
    const recordCompile = (bytes: Uint8Array): object => {
      compiled.push(Buffer.from(bytes));
      return new WASM.Module(bytes);
    };
    makeWasmCrc32c(TABLES, { compile: recordCompile });
    expect(compiled.map((b) => b.toString('base64'))).toEqual([CRC32C_RELAXED_WASM_BASE64]);
  });
});

describe('CRC-32C in WebAssembly without SIMD', () => {
  const relaxedBytes = Buffer.from(CRC32C_RELAXED_WASM_BASE64, 'base64');
  const simdBytes = Buffer.from(CRC32C_WASM_BASE64, 'base64');
  const scalarBytes = Buffer.from(CRC32C_SCALAR_WASM_BASE64, 'base64');
  /** Compiles as the runtime does, except that both SIMD modules fail, as where WebAssembly lacks SIMD. */
  function withoutSimd(compiled: Buffer[]): (bytes: Uint8Array) => object {
    return (bytes) => {
      compiled.push(Buffer.from(bytes));
      if (simdBytes.equals(bytes) || relaxedBytes.equals(bytes)) {
        throw new Error('CompileError: SIMD unsupported (injected)');
      }
      return new WASM.Module(bytes);
    };
  }
  const modules: Array<[string, Buffer]> = [
    ['relaxed', relaxedBytes],
    ['simd', simdBytes],
    ['scalar', scalarBytes],
  ];
  const nameOf = (bytes: Buffer): string => modules.find(([, b]) => b.equals(bytes))?.[0] ?? '?';

  it('falls back to the scalar-only module, which agrees with the reference on the random inputs', () => {
    const compiled: Buffer[] = [];
    const fallback = makeWasmCrc32c(TABLES, { compile: withoutSimd(compiled) });
    expect(fallback).toBeDefined();
    if (fallback === undefined) return;
    // The relaxed SIMD module was tried first, then the SIMD one, then the scalar one, which runs.
    expect(compiled.map(nameOf)).toEqual(['relaxed', 'simd', 'scalar']);
    expect(fallback(Buffer.from('123456789'), 0, 9)).toBe(0xe3069283);
    for (const [start, end] of shortRanges(SHORT_POOL)) {
      expect(fallback(SHORT_POOL, start, end)).toBe(crc32cReference(SHORT_POOL.subarray(start, end)));
    }
    for (const [start, end] of longRanges()) {
      const expected = crc32cReference(LONG_POOL.subarray(start, end));
      expect(fallback(LONG_POOL, start, end), `length ${end - start} at ${start}`).toBe(expected);
    }
  });

  it('leaves the JS loop in charge when no module compiles', () => {
    const refuse = (): object => {
      throw new Error('CompileError: WebAssembly forbidden (injected)');
    };
    expect(makeWasmCrc32c(TABLES, { compile: refuse })).toBeUndefined();
  });
});
