/**
 * CRC-32C in WebAssembly: the slice-by-16 loop of codecs/crc32c.wat, whose
 * table and word loads run without the bounds checks V8 keeps in the JS loop
 * (bench/results/crc.md has the measurement that chose it). No native addon:
 * the module is embedded below as base64, assembled from the checked-in .wat
 * by scripts/wat-assemble.ts, and test/unit/codecs/crc-wasm.test.ts fails if
 * the two ever differ.
 *
 * The input is copied into the module's memory in 64 KiB chunks (one memcpy,
 * a small fraction of the table work), so memory stays at two pages.
 */

/** Base64 of `npx tsx scripts/wat-assemble.ts codecs/crc32c.wat`. */
export const CRC32C_WASM_BASE64 =
  'AGFzbQEAAAABCAFgA39/fwF/AwIBAAUDAQACBxMCBnVwZGF0ZQAABm1lbW9yeQIACv0CAfoCBgF/AX8BfwF/AX8BfyABIAJqIQMgASACQXBxaiEEAkADQCABIARPDQEgASgCACAAcyEFIAEoAgQhBiABKAIIIQcgASgCDCEIIAVB/wFxQQJ0KAKAeCAFQQh2Qf8BcUECdCgCgHBzIAVBEHZB/wFxQQJ0KAKAaHMgBUEYdkECdCgCgGBzIAZB/wFxQQJ0KAKAWHMgBkEIdkH/AXFBAnQoAoBQcyAGQRB2Qf8BcUECdCgCgEhzIAZBGHZBAnQoAoBAcyAHQf8BcUECdCgCgDhzIAdBCHZB/wFxQQJ0KAKAMHMgB0EQdkH/AXFBAnQoAoAocyAHQRh2QQJ0KAKAIHMgCEH/AXFBAnQoAoAYcyAIQQh2Qf8BcUECdCgCgBBzIAhBEHZB/wFxQQJ0KAKACHMgCEEYdkECdCgCAHMhACABQRBqIQEMAAsLAkADQCABIANPDQEgACABLQAAc0H/AXFBAnQoAgAgAEEIdnMhACABQQFqIQEMAAsLIAAL';

/** Where the input chunk starts in the module's memory: after the sixteen 1 KiB tables. */
const DATA_AT = 16 * 1024;
/** Bytes per copy into the module's memory; 16 KiB of tables + 64 KiB of data fit its two 64 KiB pages. */
const CHUNK = 64 * 1024;

interface Crc32cWasm {
  update(state: number, ptr: number, len: number): number;
  memory: Uint8Array;
}

/** The part of the WebAssembly global used here (the project compiles without the DOM lib that declares it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: object,
  ) => {
    exports: { update: (state: number, ptr: number, len: number) => number; memory: { buffer: ArrayBuffer } };
  };
}

function instantiate(tables: Int32Array): Crc32cWasm | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (wasm === undefined) return undefined;
  try {
    const module = new wasm.Module(Buffer.from(CRC32C_WASM_BASE64, 'base64'));
    const exports = new wasm.Instance(module, {}).exports;
    const memory = new Uint8Array(exports.memory.buffer);
    memory.set(new Uint8Array(tables.buffer, tables.byteOffset, tables.byteLength), 0);
    return { update: exports.update, memory };
  } catch {
    // A runtime that forbids compiling WebAssembly (e.g. a CSP) keeps the JS loop.
    return undefined;
  }
}

/**
 * A CRC-32C function over `data[start, end)` backed by WebAssembly, or
 * undefined where WebAssembly is unavailable. `tables` are the sixteen
 * slice-by-16 tables (Int32Array of 4096, table k at 256 * k); they are only
 * correct on a little-endian host, as WebAssembly memory always is.
 */
export function makeWasmCrc32c(
  tables: Int32Array,
): ((data: Uint8Array, start: number, end: number) => number) | undefined {
  const wasm = instantiate(tables);
  if (wasm === undefined) return undefined;
  const { update, memory } = wasm;
  return (data, start, end) => {
    let state = -1;
    while (start < end) {
      const n = Math.min(CHUNK, end - start);
      memory.set(data.subarray(start, start + n), DATA_AT);
      state = update(state, DATA_AT, n);
      start += n;
    }
    return ~state >>> 0;
  };
}
