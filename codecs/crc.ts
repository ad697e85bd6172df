import * as zlib from 'node:zlib';
import crc32Module from 'crc-32';
import crc32cModule from 'crc-32/crc32c.js';
import { makeWasmCrc32c } from './crc32c-wasm.js';

/**
 * The two checksums of Kafka's record formats: CRC-32C (Castagnoli) for
 * RecordBatch v2, checked once per fetched batch and so on the hot path;
 * CRC-32 (IEEE) for the legacy magic 0/1 messages.
 */

// crc-32 is CommonJS without an exports map: its default export is module.exports, and its subpath is imported by
// file name (crc32c.js). Static imports, not createRequire, so that bundlers see and include both files.

/** zlib.crc32 (Node >= 20.15) is native and about three times faster than a JS table. */
const nativeCrc32 = (zlib as unknown as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 (IEEE 802.3, as java.util.zip.CRC32) of `data[start, end)`, unsigned. */
export function crc32(data: Uint8Array, start = 0, end = data.length): number {
  const view = start === 0 && end === data.length ? data : data.subarray(start, end);
  if (nativeCrc32 !== undefined) return nativeCrc32(view) >>> 0;
  return crc32Module.buf(view, 0) >>> 0;
}

/**
 * CRC-32C, the pure-JS loop: slice-by-16 over aligned 32-bit word loads. crc-32's crc32c
 * is slice-by-16 too but loads byte by byte; loading words halves the
 * loads per byte and measured ~15-20% faster on Node 20 (1.8 against
 * 1.55 GB/s, best of 30 rounds over 16 KiB batches), which is most of
 * the CRC's share of decoding a batch. Big-endian hosts use crc-32.
 * Where WebAssembly runs, `crc32c` uses codecs/crc32c.wat instead (SIMD
 * over 1 KiB blocks; bench/results/crc.md has the figures).
 */
const CASTAGNOLI = 0x82f63b78;
/** The sixteen slice-by-16 tables (table k at 256 * k); exported for bench/crc.ts's variants. */
export const TABLES = new Int32Array(256 * 16);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ CASTAGNOLI : c >>> 1;
  TABLES[n] = c;
}
for (let n = 0; n < 256; n++) {
  let c = TABLES[n];
  for (let t = 1; t < 16; t++) {
    c = TABLES[c & 0xff] ^ (c >>> 8);
    TABLES[t * 256 + n] = c;
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Below this many bytes the word setup costs more than it saves. */
const WORD_THRESHOLD = 64;

/** CRC-32C of `data[start, end)`, unsigned, by the pure-JS loop (the fallback where WebAssembly is unavailable). */
export function crc32cJs(data: Uint8Array, start = 0, end = data.length): number {
  if (!LITTLE_ENDIAN) return crc32cModule.buf(data.subarray(start, end), 0) >>> 0;
  const T = TABLES;
  let c = -1;
  let i = start;
  if (end - start >= WORD_THRESHOLD) {
    while (((data.byteOffset + i) & 3) !== 0) c = T[(c ^ data[i++]) & 0xff] ^ (c >>> 8);
    const words = new Int32Array(data.buffer, data.byteOffset + i, (end - i) >>> 2);
    const n = words.length & ~3;
    for (let w = 0; w < n; w += 4) {
      const a = words[w] ^ c;
      const b = words[w + 1];
      const d = words[w + 2];
      const e = words[w + 3];
      c =
        T[3840 + (a & 0xff)] ^
        T[3584 + ((a >>> 8) & 0xff)] ^
        T[3328 + ((a >>> 16) & 0xff)] ^
        T[3072 + (a >>> 24)] ^
        T[2816 + (b & 0xff)] ^
        T[2560 + ((b >>> 8) & 0xff)] ^
        T[2304 + ((b >>> 16) & 0xff)] ^
        T[2048 + (b >>> 24)] ^
        T[1792 + (d & 0xff)] ^
        T[1536 + ((d >>> 8) & 0xff)] ^
        T[1280 + ((d >>> 16) & 0xff)] ^
        T[1024 + (d >>> 24)] ^
        T[768 + (e & 0xff)] ^
        T[512 + ((e >>> 8) & 0xff)] ^
        T[256 + ((e >>> 16) & 0xff)] ^
        T[e >>> 24];
    }
    i += n * 4;
  }
  while (i < end) c = T[(c ^ data[i++]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** The WebAssembly loop; the tables are little-endian words, as WebAssembly memory is, whatever the host. */
const wasmCrc32c = LITTLE_ENDIAN ? makeWasmCrc32c(TABLES) : undefined;

/** Which loop `crc32c` runs here (for tests and benchmarks). */
export const crc32cImplementation: 'wasm' | 'js' = wasmCrc32c !== undefined ? 'wasm' : 'js';

/** CRC-32C of `data[start, end)`, unsigned: WebAssembly where it runs, else the JS loop. */
export function crc32c(data: Uint8Array, start = 0, end = data.length): number {
  return wasmCrc32c !== undefined ? wasmCrc32c(data, start, end) : crc32cJs(data, start, end);
}

/** The reference implementation, for tests that cross-check the fast one. */
export function crc32cReference(data: Uint8Array): number {
  return crc32cModule.buf(data, 0) >>> 0;
}
