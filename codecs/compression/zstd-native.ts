import * as zlib from 'node:zlib';
import { DecompressionLimitError } from './errors.js';
import { commitOutput, reserveOutput } from './output-slab.js';
import type { ZstdFrame } from './zstd-frames.js';

/**
 * Native zstd decompression of one frame straight into the output slab,
 * through one long-lived decompression context (Node's zlib, 22.15 / 23.8
 * and later).
 *
 * Why not just zlib.zstdDecompressSync: per call it builds a stream object
 * and a fresh ZSTD_DCtx, decodes into 16 KiB chunks and concatenates them,
 * which made a 64 KiB batch cost about 2.5x the decoding itself
 * (bench/results/decompress.md). Here the frame is decoded by one writeSync
 * call of the engine's native handle (the call zlib's own sync path makes)
 * into a reservation sized from the frame header: the declared content
 * size, else the block headers' bound. The handle is an internal of
 * node:zlib, so it is used only where it has the expected shape and has
 * decoded a known frame correctly. Whatever this path does not finish
 * cleanly (bad input, a frame larger than its reservation) returns
 * undefined, and the caller runs the public API, which words the error.
 */

interface ZstdHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    out: Uint8Array,
    outOff: number,
    outLen: number,
  ): void;
}

interface ZstdEngine {
  _handle: ZstdHandle | null;
  _writeState: Uint32Array;
  _finishFlushFlag: number;
  destroyed: boolean;
  reset(): void;
  on(event: 'error', listener: (err: unknown) => void): unknown;
}

/** A frame without a content size gets at most this reservation (or 32x its size); larger ones take the public API. */
const UNSIZED_ROOM = 1024 * 1024;

/** The open engine; null once the handle proved unusable on this runtime. */
let engine: ZstdEngine | null | undefined;

function openEngine(): ZstdEngine | null {
  const z = zlib as unknown as {
    ZstdDecompress?: new () => ZstdEngine;
    zstdCompressSync?: (d: Uint8Array) => Buffer;
  };
  if (typeof z.ZstdDecompress !== 'function' || typeof z.zstdCompressSync !== 'function') return null;
  let e: ZstdEngine;
  try {
    e = new z.ZstdDecompress();
  } catch {
    return null;
  }
  const shaped =
    typeof e._handle?.writeSync === 'function' &&
    e._writeState instanceof Uint32Array &&
    e._writeState.length >= 2 &&
    typeof e._finishFlushFlag === 'number' &&
    typeof e.reset === 'function';
  if (!shaped) return null;
  // Errors close the handle synchronously (seen below); the stream's own 'error' event must not go unhandled.
  e.on('error', () => {});
  const known = Buffer.from('tidemark zstd self-check '.repeat(40));
  return selfCheck(e, z.zstdCompressSync(known), known) ? e : null;
}

/** Decodes a known frame through the handle and checks bytes and counts; any surprise disables this path. */
function selfCheck(e: ZstdEngine, frame: Buffer, known: Buffer): boolean {
  const out = Buffer.alloc(known.length + 1);
  try {
    e.reset();
    e._handle?.writeSync(e._finishFlushFlag, frame, 0, frame.length, out, 0, out.length);
  } catch {
    return false;
  }
  return e._handle !== null && e._writeState[0] === 1 && e._writeState[1] === 0 && out.subarray(0, -1).equals(known);
}

/**
 * Decodes `data[frame.start, frame.end)` (one frame, already scanned) into
 * the output slab; undefined when this path is unavailable or did not
 * finish cleanly.
 */
export function zstdDecodeFrameNative(data: Uint8Array, frame: ZstdFrame, limit: number): Buffer | undefined {
  if (engine === undefined) engine = openEngine();
  const e = engine;
  if (e === null || e._handle === null) return undefined;
  const size = frame.end - frame.start;
  const room =
    frame.contentSize >= 0 ? frame.contentSize : Math.min(frame.outputBound, limit, Math.max(UNSIZED_ROOM, 32 * size));
  // One byte more than expected: a frame that fills it holds more than it should.
  const out = reserveOutput(room + 1);
  const state = e._writeState;
  try {
    e.reset();
    e._handle.writeSync(e._finishFlushFlag, data, frame.start, size, out, 0, room + 1);
  } catch {
    engine = undefined;
    return undefined;
  }
  if (e._handle === null || e.destroyed) {
    // Bad input closed the handle; the next frame gets a new engine, this one the public API's verdict.
    engine = undefined;
    return undefined;
  }
  const produced = room + 1 - state[0];
  if (state[1] !== 0 || produced > room) return undefined;
  if (frame.contentSize >= 0 && produced !== frame.contentSize) return undefined;
  if (produced > limit) throw new DecompressionLimitError('zstd', limit);
  return commitOutput(out, produced);
}
