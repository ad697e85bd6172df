import { instantiateEmbedded, type WasmCompile } from '../wasm-module.js';
import type { SnappyBlock } from './snappy-block.js';

/**
 * Raw Snappy block elements decoded in WebAssembly: codecs/snappy.wat, a
 * hand-written loop that moves literals and copies 8 bytes a step where it
 * can, with every element checked against its block's input and declared
 * output before it moves (bench/results/decompress.md has the figures that
 * chose it over the JS loop). No native addon: the module is embedded below
 * as base64, assembled from the checked-in .wat by scripts/wat-assemble.ts,
 * and test/unit/codecs/snappy-wasm.test.ts fails if the two ever differ.
 *
 * The compressed input is copied into the module's memory, the blocks are
 * decoded into a region above it, and the result is copied once into the
 * caller's output. The module only says whether the input was corrupt; the
 * caller then runs the JS decoder on the same bytes, which names the fault
 * with the same CompressionError either way. Compiled on first use; where
 * WebAssembly is missing or refuses to compile, callers keep the JS decoder.
 */

/** Base64 of `npx tsx scripts/wat-assemble.ts codecs/snappy.wat`. */
export const SNAPPY_WASM_BASE64 =
  'AGFzbQEAAAABCQFgBH9/f38BfwMCAQAFAwEAAQcTAgZkZWNvZGUAAAZtZW1vcnkCAAq8AwG5AwcBfwF/AX8BfwF/AX8BfyACIQQCQANAIAAgAU8EQCACDwsgAC0AACEFIABBAWohACAFQQNxRQRAIAVBAnYhBiAGQTxPBEAgBkE7ayEKIAogASAAa0sNAyAAKAIAQX9BICAKQQN0a3ZxIQYgACAKaiEACyAGIAEgAGtPDQIgBiADIAJrTw0CIAIgBmpBAWohCQNAIAIgACkDADcDACAAQQhqIQAgAkEIaiICIAlJDQALIAAgAiAJa2shACAJIQIMAQsgBUEDcUEBRgRAIAAgAU8NAiAFQQJ2QQdxQQRqIQYgBUEFdkEIdCAALQAAciEHIABBAWohAAUgBUECdkEBaiEGIAVBA3FBAkYEQEECIAEgAGtLDQMgAC8BACEHIABBAmohAAVBBCABIABrSw0DIAAoAgAhByAAQQRqIQALCyAHRQ0BIAcgAiAEa0sNASAGIAMgAmtLDQEgAiAHayEIIAIgBmohCSAHQQhPBEADQCACIAgpAwA3AwAgCEEIaiEIIAJBCGoiAiAJSQ0ACwUDQCACIAgtAAA6AAAgCEEBaiEIIAJBAWoiAiAJSQ0ACwsgCSECDAALC0F/Cw==';

/** Free bytes the module may touch after the input and after the output (8-byte steps overshoot by up to 7). */
const SLACK = 16;
const PAGE = 64 * 1024;
/**
 * Input plus output above this decode in JS: module memory never shrinks, so one huge batch would otherwise
 * keep its size for the life of the process. Kafka batches are far smaller (1 MiB by default).
 */
export const SNAPPY_WASM_MAX_BYTES = 8 * 1024 * 1024;

interface Exports {
  decode: (s: number, end: number, d: number, dstEnd: number) => number;
  memory: { buffer: ArrayBuffer; grow: (pages: number) => number };
}

/**
 * Decodes `blocks` of `data` into `out` one after another, from offset 0, `total` bytes in all. Returns false,
 * having written nothing useful, when the input is corrupt or too large for the module (the caller then decodes
 * in JS).
 */
export type SnappyBlocksDecoder = (
  data: Uint8Array,
  blocks: readonly SnappyBlock[],
  out: Uint8Array,
  total: number,
) => boolean;

/** Compiles the module, or returns undefined where WebAssembly is unavailable or refuses it. */
export function makeWasmSnappyDecoder(compile?: WasmCompile): SnappyBlocksDecoder | undefined {
  const exports = instantiateEmbedded<Exports>(SNAPPY_WASM_BASE64, compile);
  if (exports === undefined) return undefined;
  const { decode, memory } = exports;
  let bytes = new Uint8Array(memory.buffer);
  return (data, blocks, out, total) => {
    const outAt = (data.length + SLACK + 7) & ~7;
    const need = outAt + total + SLACK;
    if (need > SNAPPY_WASM_MAX_BYTES) return false;
    if (need > bytes.length) {
      try {
        memory.grow(Math.ceil((need - bytes.length) / PAGE));
      } catch {
        return false; // No memory to grow into (RangeError): the JS decoder writes straight into `out`.
      }
      bytes = new Uint8Array(memory.buffer);
    }
    bytes.set(data, 0);
    let d = outAt;
    for (const block of blocks) {
      const dstEnd = d + block.length;
      if (decode(block.dataStart, block.end, d, dstEnd) !== dstEnd) return false;
      d = dstEnd;
    }
    out.set(bytes.subarray(outAt, outAt + total), 0);
    return true;
  };
}
