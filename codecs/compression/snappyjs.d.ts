// Local types for snappyjs 0.7 (no @types package is installed); only what tidemark calls.
declare module 'snappyjs' {
  /** Raw Snappy block format, returned as the same kind of array as the input. */
  export function compress(input: Uint8Array): Uint8Array;
  export function uncompress(input: Uint8Array, maxLength?: number): Uint8Array;
}
