import { readFileSync } from 'node:fs';
import { compress as snappyjsCompress } from 'snappyjs';
import { describe, expect, it } from 'vitest';
import { CompressionError, DecompressionLimitError } from '../../../codecs/compression/errors.js';
import {
  snappyCompress,
  snappyCompressRaw,
  snappyDecoderImplementation,
  snappyDecompress,
  snappyDecompressRaw,
} from '../../../codecs/compression/snappy.js';
import { decodeSnappyElements, readSnappyBlockHeader } from '../../../codecs/compression/snappy-block.js';
import {
  makeWasmSnappyDecoder,
  SNAPPY_WASM_BASE64,
  SNAPPY_WASM_MAX_BYTES,
} from '../../../codecs/compression/snappy-wasm.js';
import { assembleWat } from '../../../scripts/wat-assemble.js';
import { Rng } from '../../conformance/random.js';

const LIMIT = 64 * 1024 * 1024;

/** Seeded integers below a bound (the tests' shared generator), so a failure reproduces. */
function rng(seed: number): (bound: number) => number {
  const rand = new Rng(seed);
  return (bound) => rand.int(bound);
}

/** `n` bytes: random, or (`runs`) random-length repeats of earlier bytes at random distances, as records are. */
function sample(n: number, seed: number, runs: boolean): Buffer {
  const next = rng(seed);
  const out = Buffer.allocUnsafe(n);
  let i = 0;
  while (i < n) {
    if (runs && i > 0 && next(3) !== 0) {
      const distance = 1 + next(Math.min(i, next(2) === 0 ? 16 : 70_000));
      const len = Math.min(n - i, 1 + next(200));
      for (let k = 0; k < len; k++, i++) out[i] = out[i - distance];
    } else {
      const len = Math.min(n - i, 1 + next(runs ? 20 : n));
      for (let k = 0; k < len; k++, i++) out[i] = next(runs ? 8 : 256);
    }
  }
  return out;
}

/** What decoding `data` (a xerial stream or raw block) gives with one decoder: bytes, or the error's class and text. */
function outcome(data: Buffer, decoder: 'wasm' | 'js'): string {
  try {
    return snappyDecompress(data, LIMIT, decoder).toString('hex');
  } catch (e) {
    if (!(e instanceof CompressionError)) throw e;
    return `${e.name}: ${e.message}`;
  }
}

/**
 * Raw blocks with one fault each (a copy that is also too long would be refused for that instead): the length
 * varint, then elements. Tags: literal (len - 1) << 2 (60-63: 1-4 length bytes follow); copy-1
 * 0b01 | (len - 4) << 2 | offset's high bits << 5; copy-2 0b10 and copy-4 0b11 | (len - 1) << 2.
 */
const CORRUPT: Array<[string, number[]]> = [
  ['literal past the end of the input', [5, 0x10, 0x61]],
  ['literal length bytes past the end', [2, 0xf4, 0x01]],
  ['4-byte literal length 2^32 - 1', [5, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x61]],
  ['literal over the declared length', [1, 0x74, ...Buffer.alloc(30, 0x61)]],
  ['copy offset 0', [9, 0x00, 0x61, 0x11, 0]],
  ['copy offset before the start', [9, 0x00, 0x61, 0x11, 9]],
  ['copy-2 offset before the start', [5, 0x00, 0x61, 0x0e, 2, 0]],
  ['copy-4 offset 2^32 - 1', [5, 0x00, 0x61, 0x0f, 0xff, 0xff, 0xff, 0xff]],
  ['copy over the declared length', [6, 0x04, 0x61, 0x62, 0xfe, 1, 0]],
  ['copy-1 offset byte missing', [5, 0x00, 0x61, 0x01]],
  ['copy-2 offset cut short', [5, 0x00, 0x61, 0x0e, 1]],
  ['copy-4 offset cut short', [5, 0x00, 0x61, 0x0f, 1, 0, 0]],
  ['fewer bytes than declared', [10, 0x00, 0x61, 0x11, 1]],
  ['declared length varint cut short', [0x80]],
];

interface ModuleExports {
  decode: (s: number, end: number, d: number, dstEnd: number) => number;
  memory: { buffer: ArrayBuffer };
}

/** A fresh instance of the embedded module (the project compiles without the DOM lib's WebAssembly types). */
function instantiate(): ModuleExports {
  const wasm = (
    globalThis as unknown as {
      WebAssembly: {
        Module: new (b: Uint8Array) => object;
        Instance: new (m: object, i: object) => { exports: ModuleExports };
      };
    }
  ).WebAssembly;
  return new wasm.Instance(new wasm.Module(Buffer.from(SNAPPY_WASM_BASE64, 'base64')), {}).exports;
}

const wasmDecoder = makeWasmSnappyDecoder();

describe('Snappy blocks in WebAssembly', () => {
  it('embeds exactly the assembly of codecs/snappy.wat', () => {
    const assembled = assembleWat(readFileSync('codecs/snappy.wat', 'utf8'));
    expect(Buffer.from(assembled).toString('base64')).toBe(SNAPPY_WASM_BASE64);
  });

  it('runs here (Node has WebAssembly), and snappyDecompress uses it', () => {
    expect(wasmDecoder).toBeDefined();
    expect(snappyDecoderImplementation()).toBe('wasm');
  });

  it('falls back to JS where WebAssembly refuses to compile', () => {
    const refused = makeWasmSnappyDecoder(() => {
      throw new Error('CompileError: refused');
    });
    expect(refused).toBeUndefined();
  });

  it('decodes what snappyjs encodes exactly as the JS decoder does, at many sizes', () => {
    const next = rng(99);
    const sizes = [0, 1, 2, 7, 8, 9, 15, 16, 17, 59, 60, 61, 63, 64, 65, 255, 256, 257, 4096, 32768, 65536, 65537];
    for (let k = 0; k < 60; k++) sizes.push(next(300_000));
    for (const [i, n] of sizes.entries()) {
      for (const runs of [false, true]) {
        const data = sample(n, i * 2 + (runs ? 1 : 0) + 1, runs);
        const raw = snappyCompressRaw(data);
        const framed = snappyCompress(data, 1024 + next(40_000));
        for (const stream of [raw, framed]) {
          const wasm = snappyDecompress(stream, LIMIT, 'wasm');
          const js = snappyDecompress(stream, LIMIT, 'js');
          expect(wasm.equals(js), `size ${n}, runs ${runs}`).toBe(true);
          expect(wasm.equals(data), `size ${n}, runs ${runs}`).toBe(true);
        }
      }
    }
    // 164 inputs up to 300 KB, each compressed two ways and decoded by both decoders: 0.7 s on Node and 1.5 s on
    // Bun on a quiet machine, 9.5 s on Bun at load 18 (a CI dry run beside others' tests). Vitest's 5 s default
    // timed out there; this bounds a hang.
  }, 30_000);

  it('the module itself accepts and decodes every element kind snappyjs writes', () => {
    const data = sample(200_000, 7, true);
    const raw = Buffer.from(snappyjsCompress(data));
    const header = readSnappyBlockHeader(raw, 0, raw.length);
    const out = Buffer.alloc(header.length);
    const blocks = [{ dataStart: header.dataStart, end: raw.length, length: header.length }];
    expect(wasmDecoder?.(raw, blocks, out, header.length)).toBe(true);
    expect(out.equals(data)).toBe(true);
  });

  it('leaves inputs over its memory cap to the JS decoder', () => {
    const data = Buffer.alloc(SNAPPY_WASM_MAX_BYTES, 1);
    const raw = snappyCompressRaw(data);
    const header = readSnappyBlockHeader(raw, 0, raw.length);
    const blocks = [{ dataStart: header.dataStart, end: raw.length, length: header.length }];
    expect(wasmDecoder?.(raw, blocks, Buffer.alloc(header.length), header.length)).toBe(false);
    expect(snappyDecompressRaw(raw, LIMIT).equals(data)).toBe(true);
  });

  it.each(CORRUPT)('refuses %s with the JS decoder’s CompressionError', (_, bytes) => {
    const raw = Buffer.from(bytes);
    const js = outcome(raw, 'js');
    expect(js).toMatch(/^CompressionError: snappy: /);
    expect(outcome(raw, 'wasm')).toBe(js);
  });

  it.each(CORRUPT.filter(([name]) => !name.includes('varint')))(
    'the module itself refuses %s, writing nothing past the block’s output and its 8-byte slack',
    (name, bytes) => {
      const raw = Buffer.from(bytes);
      const { length, dataStart } = readSnappyBlockHeader(raw, 0, raw.length);
      const { decode, memory } = instantiate();
      const mem = new Uint8Array(memory.buffer);
      mem.fill(0xaa);
      // After the input, what a missing check for a cut-short copy would read as offset 1, and then succeed.
      mem.fill(name.startsWith('copy-1') ? 1 : 0, raw.length, raw.length + 16);
      mem.set(raw, 0);
      const outAt = 64;
      expect(decode(dataStart, raw.length, outAt, outAt + length)).not.toBe(outAt + length);
      const guard = mem.subarray(outAt + length + 8);
      expect(guard.every((b) => b === 0xaa)).toBe(true);
    },
  );

  it('refuses a declared length over the limit before either decoder runs', () => {
    const raw = snappyCompressRaw(Buffer.alloc(5000, 3));
    for (const decoder of ['wasm', 'js'] as const) {
      expect(() => snappyDecompressRaw(raw, 4999, decoder)).toThrow(DecompressionLimitError);
    }
  });

  it('agrees with the JS decoder on every corruption of valid streams: same bytes or same error', () => {
    const next = rng(4242);
    for (let k = 0; k < 600; k++) {
      const data = sample(1 + next(3000), k + 1, next(4) !== 0);
      const good = k % 2 === 0 ? snappyCompressRaw(data) : snappyCompress(data, 256 + next(2048));
      const bad = Buffer.from(good);
      const flips = 1 + next(3);
      for (let f = 0; f < flips; f++) bad[next(bad.length)] = next(256);
      const cut = next(5) === 0 ? bad.subarray(0, next(bad.length)) : bad;
      expect(outcome(cut, 'wasm'), `case ${k}`).toBe(outcome(cut, 'js'));
    }
  });

  it('decodes overlapping copies (offsets 1-8) byte-exact', () => {
    for (let offset = 1; offset <= 9; offset++) {
      const unit = Buffer.from('abcdefghi'.slice(0, offset));
      const data = Buffer.concat(Array.from({ length: 200 }, () => unit));
      const raw = snappyCompressRaw(data);
      const js = Buffer.alloc(data.length);
      const header = readSnappyBlockHeader(raw, 0, raw.length);
      decodeSnappyElements(raw, header.dataStart, raw.length, js, 0, header.length);
      expect(snappyDecompressRaw(raw, LIMIT, 'wasm').equals(js)).toBe(true);
      expect(js.equals(data)).toBe(true);
    }
  });
});
