import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cImplementation, crc32cJs, crc32cReference } from '../../../codecs/crc.js';
import { CRC32C_WASM_BASE64 } from '../../../codecs/crc32c-wasm.js';
import { assembleWat } from '../../../scripts/wat-assemble.js';

/** Deterministic pseudo-random bytes (xorshift), so a failure reproduces. */
function randomBytes(n: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('CRC-32C in WebAssembly', () => {
  it('embeds exactly the assembly of codecs/crc32c.wat', () => {
    const wat = readFileSync(new URL('../../../codecs/crc32c.wat', import.meta.url), 'utf8');
    expect(Buffer.from(assembleWat(wat)).toString('base64')).toBe(CRC32C_WASM_BASE64);
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
    const pool = randomBytes(4096, 0x5eed);
    let seed = 12345;
    for (let len = 0; len <= 300; len++) {
      for (let k = 0; k < 4; k++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const start = seed % (pool.length - len);
        const expected = crc32cReference(pool.subarray(start, start + len));
        expect(crc32c(pool, start, start + len)).toBe(expected);
        expect(crc32cJs(pool, start, start + len)).toBe(expected);
        expect(crc32c(pool.subarray(start, start + len))).toBe(expected);
      }
    }
  });

  it('agrees with the reference on random lengths 0-300 000 at random odd offsets (SIMD blocks and their tails)', () => {
    const pool = randomBytes(300_000 + 4096, 0xc0ffee);
    let seed = 777;
    const next = (bound: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % bound;
    };
    // Random lengths, plus the edges of the 1 KiB SIMD block, the 16-byte step and the 64 KiB copy chunk.
    const edges = [1023, 1024, 1025, 1039, 1040, 2047, 2048, 2049, 65535, 65536, 65537, 65536 + 1024, 131072 + 17];
    const lengths = [...edges, ...Array.from({ length: 120 }, () => next(300_001))];
    for (const len of lengths) {
      const start = next(2048) | 1;
      const expected = crc32cReference(pool.subarray(start, start + len));
      expect(crc32c(pool, start, start + len), `length ${len} at ${start}`).toBe(expected);
      expect(crc32cJs(pool, start, start + len), `JS, length ${len} at ${start}`).toBe(expected);
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
