/**
 * The LZ4 block codec in WebAssembly. codecs/lz4-compress.wat is the same
 * greedy strategy as lz4CompressBlock in ./lz4-block.ts with whole-word
 * compares, writing the same bytes (bench/results/produce-cpu.md has the
 * measurement that chose it); codecs/lz4-decompress.wat is lz4DecompressBlock
 * with 8-byte copies, the same checks in the same order and the same typed
 * errors. Both win because WebAssembly loads and stores whole words where the
 * JS loops go byte by byte.
 * No native addon: the modules are embedded below as base64, assembled from
 * the checked-in .wat by scripts/wat-assemble.ts, and
 * test/unit/codecs/compression/lz4-wasm.test.ts fails if they ever differ.
 * Where WebAssembly is missing or may not compile, the JS codec runs.
 *
 * One block (at most 64 KiB, Kafka's block size) is copied into a module's
 * memory per call and its result copied out, so each memory stays at its 3
 * pages and is never grown; larger blocks (other producers' frames) take the
 * JS path.
 */
import { instantiateEmbedded, type WasmCompile } from '../wasm-module.js';
import { LZ4_OUTPUT_OVERFLOW, lz4CompressBlock, lz4DecompressBlock } from './lz4-block.js';

/** Base64 of `npx tsx scripts/wat-assemble.ts codecs/lz4-compress.wat`. */
export const LZ4_COMPRESS_WASM_BASE64 =
  'AGFzbQEAAAABCAFgA39/fwF/AwIBAAUDAQADBxUCCGNvbXByZXNzAAAGbWVtb3J5AgAKwgYBvwYSAX8BfwF/AX8BfwF/AX8BfwF/AX8BfwF/AX8BfwF/AX8BfwF+IAIhAyAAIQQgASAAa0ENTwRAIAFBDGshBiABQQVrIQcgACEFQcAAIQggBSgCACEJAkADQCAFIAZPDQEgCUGx893xeWxBFHZBAnQiCigCACELIAogBTYCACALIABPBEAgBSALa0GAgARJBEAgCygCACAJRgRAQcAAIQggBSENAkADQCANIARNDQEgCyAATQ0BIA1BAWstAAAgC0EBay0AAEcNASANQQFrIQ0gC0EBayELDAALCyAFIA1rQQRqIQ4CQAJAA0AgDSAOakEIaiAHSw0BIA0gDmopAwAgCyAOaikDAIUiFFAEQCAOQQhqIQ4MAQsgFHqnQQN2IA5qIQ4MAgsLA0AgDSAOaiAHTw0BIA0gDmotAAAgCyAOai0AAEcNASAOQQFqIQ4MAAsLIA0gBGshDyADIREgA0EBaiEDIA9BD08EQEHwASEQIA9BD2shEwJAA0AgE0H/AUkNASADQf8BOgAAIANBAWohAyATQf8BayETDAALCyADIBM6AAAgA0EBaiEDBSAPQQR0IRALQQAhEgJAA0AgEiAPTw0BIAMgEmogBCASaikDADcDACASQQhqIRIMAAsLIAMgD2ohAyADIA0gC2s7AQAgA0ECaiEDIA5BBGshEyATQQ9PBEAgEEEPciEQIBNBD2shEwJAA0AgE0H/AUkNASADQf8BOgAAIANBAWohAyATQf8BayETDAALCyADIBM6AAAgA0EBaiEDBSAQIBNyIRALIBEgEDoAACANIA5qIgUhBCAFQQJrIg0oAgBBsfPd8XlsQRR2QQJ0IA02AgAgBSgCACEJDAMLCwsgCEEGdiAFaiEFIAhBAWohCCAFKAIAIQkMAAsLCyABIARrIQ8gAyERIANBAWohAyAPQQ9PBEBB8AEhECAPQQ9rIRMCQANAIBNB/wFJDQEgA0H/AToAACADQQFqIQMgE0H/AWshEwwACwsgAyATOgAAIANBAWohAwUgD0EEdCEQCyARIBA6AABBACESAkADQCASIA9PDQEgAyASaiAEIBJqKQMANwMAIBJBCGohEgwACwsgAyAPags=';

// The memory layout of codecs/lz4-compress.wat (its header lists it).
/** The hash table: 4096 i32 positions at byte 0; 0 marks an empty slot. */
const TABLE_ENTRIES = 4096;
/** Where the input block is copied. */
const IN_AT = 16384;
/** The largest block the module takes (its input area). */
export const LZ4_WASM_MAX_BLOCK = 65536;
/** Where the module writes the compressed block: after the input and the 8-byte over-reads of its literal copy. */
const OUT_AT = IN_AT + LZ4_WASM_MAX_BLOCK + 64;

interface Exports {
  compress: (src: number, end: number, dst: number) => number;
  memory: { buffer: ArrayBuffer };
}

/** The signature of lz4CompressBlock: compresses src[start, end) into dst from dstStart, returns the end in dst. */
export type Lz4BlockCompressor = (
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  dstStart: number,
) => number;

/** How makeWasmLz4Compressor builds its module. */
export interface WasmLz4Options {
  /** Compiles module bytes (default `new WebAssembly.Module`); a seam for tests of the fallback. */
  compile?: WasmCompile;
}

/**
 * An LZ4 block compressor backed by WebAssembly, or undefined where
 * WebAssembly is unavailable or refuses the module. Blocks longer than
 * LZ4_WASM_MAX_BLOCK go to the JS compressor.
 */
export function makeWasmLz4Compressor(options: WasmLz4Options = {}): Lz4BlockCompressor | undefined {
  const exports = instantiateEmbedded<Exports>(LZ4_COMPRESS_WASM_BASE64, options.compile);
  if (exports === undefined) return undefined;
  const { compress } = exports;
  const memory = new Uint8Array(exports.memory.buffer);
  const table = new Int32Array(exports.memory.buffer, 0, TABLE_ENTRIES);
  return (src, start, end, dst, dstStart) => {
    const n = end - start;
    if (n > LZ4_WASM_MAX_BLOCK) return lz4CompressBlock(src, start, end, dst, dstStart);
    table.fill(0);
    memory.set(src.subarray(start, end), IN_AT);
    const outEnd = compress(IN_AT, IN_AT + n, OUT_AT);
    dst.set(memory.subarray(OUT_AT, outEnd), dstStart);
    return dstStart + outEnd - OUT_AT;
  };
}

/** Base64 of `npx tsx scripts/wat-assemble.ts codecs/lz4-decompress.wat`. */
export const LZ4_DECOMPRESS_WASM_BASE64 =
  'AGFzbQEAAAABCQFgBH9/f38BfwMCAQAFAwEAAwcXAgpkZWNvbXByZXNzAAAGbWVtb3J5AgAKtgMBswMKAX8BfwF/AX8BfwF/AX8BfwF/AX8gACEEIAIhBQNAIAQgAU8EQEF+DwsgBC0AACIGQQR2IQcgBEEBaiEEIAdBD0YEQANAIAQgAU8EQEF9DwsgBC0AACIIIAdqIQcgBEEBaiEEIAhB/wFGDQALCyAHIAEgBGtLBEBBfA8LIAcgAyAFa0sEQEF/DwtBACENAkADQCANIAdPDQEgBSANaiAEIA1qKQMANwMAIA1BCGohDQwACwsgBCAHaiEEIAUgB2ohBSAEIAFGBEAgBQ8LIAEgBGtBAkkEQEF7DwsgBC8BACEJIARBAmohBCAJRSAJIAUgAmtLcgRAQXoPCyAGQQ9xQQRqIQogCkETRgRAA0AgBCABTwRAQXkPCyAELQAAIgggCmohCiAEQQFqIQQgCEH/AUYNAAsLIAogAyAFa0sEQEF/DwsgBSAJayELIAUgCmohDCAJQQhPBEACQANAIAUgDE8NASAFIAspAwA3AwAgBUEIaiEFIAtBCGohCwwACwsFAkADQCAFIAxPDQEgBSALLQAAOgAAIAVBAWohBSALQQFqIQsMAAsLCyAMIQUMAAtBfgs=';

// The memory layout of codecs/lz4-decompress.wat (its header lists it).
/** Where the compressed block is copied, and where it decodes (each area has 64 bytes of room after it). */
const BLOCK_AT = 0;
const DECODED_AT = LZ4_WASM_MAX_BLOCK + 64;

/** The signature of lz4DecompressBlock (see there). */
export type Lz4BlockDecompressor = typeof lz4DecompressBlock;

/** The module's results below zero, as the JS decoder words them (-1 and -6 are handled apart). */
const DECODE_ERRORS: Record<number, string> = {
  [-2]: 'block ends inside a sequence',
  [-3]: 'literal length runs past the end',
  [-4]: 'literals run past the end of the block',
  [-5]: 'match offset runs past the end',
  [-7]: 'match length runs past the end',
};
const OUTPUT_OVERFLOW = -1;
const OFFSET_BEFORE_BLOCK = -6;

interface DecompressExports {
  decompress: (src: number, end: number, dst: number, dstEnd: number) => number;
  memory: { buffer: ArrayBuffer };
}

/**
 * An LZ4 block decoder backed by WebAssembly with lz4DecompressBlock's
 * results and errors, or undefined where WebAssembly is unavailable or refuses
 * the module. Blocks over LZ4_WASM_MAX_BLOCK (in or out) and blocks whose
 * matches reach back before the block (linked blocks, or an offset to name in
 * the error) go to the JS decoder.
 */
export function makeWasmLz4Decompressor(options: WasmLz4Options = {}): Lz4BlockDecompressor | undefined {
  const exports = instantiateEmbedded<DecompressExports>(LZ4_DECOMPRESS_WASM_BASE64, options.compile);
  if (exports === undefined) return undefined;
  const { decompress } = exports;
  const memory = new Uint8Array(exports.memory.buffer);
  return (src, start, end, dst, dstPos, dstEnd, windowStart, fail) => {
    const room = dstEnd - dstPos;
    if (end - start > LZ4_WASM_MAX_BLOCK || room > LZ4_WASM_MAX_BLOCK) {
      return lz4DecompressBlock(src, start, end, dst, dstPos, dstEnd, windowStart, fail);
    }
    memory.set(src.subarray(start, end), BLOCK_AT);
    const result = decompress(BLOCK_AT, BLOCK_AT + end - start, DECODED_AT, DECODED_AT + room);
    if (result >= 0) {
      dst.set(memory.subarray(DECODED_AT, result), dstPos);
      return dstPos + result - DECODED_AT;
    }
    if (result === OUTPUT_OVERFLOW) return LZ4_OUTPUT_OVERFLOW;
    if (result === OFFSET_BEFORE_BLOCK)
      return lz4DecompressBlock(src, start, end, dst, dstPos, dstEnd, windowStart, fail);
    return fail(DECODE_ERRORS[result] ?? `block decoder result ${result}`);
  };
}

let compressor: Lz4BlockCompressor | undefined;
let decompressor: Lz4BlockDecompressor | undefined;

/**
 * The block decoder lz4Decompress uses: the WebAssembly one, instantiated on
 * first use, or lz4DecompressBlock where WebAssembly is unavailable.
 */
export function lz4BlockDecompressor(): Lz4BlockDecompressor {
  decompressor ??= makeWasmLz4Decompressor() ?? lz4DecompressBlock;
  return decompressor;
}

/**
 * The block compressor lz4Compress uses: the WebAssembly one, instantiated on
 * first use, or lz4CompressBlock where WebAssembly is unavailable.
 */
export function lz4BlockCompressor(): Lz4BlockCompressor {
  compressor ??= makeWasmLz4Compressor() ?? lz4CompressBlock;
  return compressor;
}
