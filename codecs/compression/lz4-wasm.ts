/**
 * The LZ4 block compressor in WebAssembly: codecs/lz4-compress.wat, the same
 * greedy strategy as lz4CompressBlock in ./lz4-block.ts with whole-word
 * compares, writing the same bytes (bench/results/produce-cpu.md has the
 * measurement that chose it).
 * No native addon: the module is embedded below as base64, assembled from the
 * checked-in .wat by scripts/wat-assemble.ts, and
 * test/unit/codecs/compression/lz4-wasm.test.ts fails if the two ever differ.
 * Where WebAssembly is missing or may not compile, the JS compressor runs.
 *
 * One block (at most 64 KiB, Kafka's block size) is copied into the module's
 * memory per call and its compressed form copied out, so the memory stays at
 * its 3 pages and is never grown.
 */
import { lz4CompressBlock } from './lz4-block.js';

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

/** The part of the WebAssembly global used here (the project compiles without the DOM lib that declares it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Exports };
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
  compile?: (bytes: Uint8Array) => object;
}

/**
 * An LZ4 block compressor backed by WebAssembly, or undefined where
 * WebAssembly is unavailable or refuses the module. Blocks longer than
 * LZ4_WASM_MAX_BLOCK go to the JS compressor.
 */
export function makeWasmLz4Compressor(options: WasmLz4Options = {}): Lz4BlockCompressor | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (wasm === undefined) return undefined;
  let exports: Exports;
  try {
    const compile = options.compile ?? ((bytes: Uint8Array) => new wasm.Module(bytes));
    exports = new wasm.Instance(compile(Buffer.from(LZ4_COMPRESS_WASM_BASE64, 'base64')), {}).exports;
  } catch {
    // A runtime that forbids compiling WebAssembly (e.g. a CSP) keeps the JS compressor.
    return undefined;
  }
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

let compressor: Lz4BlockCompressor | undefined;

/**
 * The block compressor lz4Compress uses: the WebAssembly one, instantiated on
 * first use, or lz4CompressBlock where WebAssembly is unavailable.
 */
export function lz4BlockCompressor(): Lz4BlockCompressor {
  compressor ??= makeWasmLz4Compressor() ?? lz4CompressBlock;
  return compressor;
}
