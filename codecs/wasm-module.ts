/**
 * Instantiates one of the project's embedded WebAssembly modules (CRC-32C, Snappy, LZ4): base64 of the module
 * assembled from its checked-in .wat by scripts/wat-assemble.ts, no imports. The one place that knows how a
 * module is compiled and what happens when it cannot be: every caller keeps a JS path and uses it then.
 */

/** The part of the WebAssembly global used here (the project compiles without the DOM lib that declares it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

/** Compiles module bytes (default `new WebAssembly.Module`); a seam for tests of the fallback. */
export type WasmCompile = (bytes: Uint8Array) => object;

/**
 * The exports of the module in `base64`, or undefined where WebAssembly is missing or refuses it: a runtime
 * that forbids compiling WebAssembly (e.g. a CSP), or one without a feature the module uses (SIMD).
 */
export function instantiateEmbedded<T>(base64: string, compile?: WasmCompile): T | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (wasm === undefined) return undefined;
  try {
    const module = (compile ?? ((bytes: Uint8Array) => new wasm.Module(bytes)))(Buffer.from(base64, 'base64'));
    return new wasm.Instance(module, {}).exports as T;
  } catch {
    return undefined;
  }
}
