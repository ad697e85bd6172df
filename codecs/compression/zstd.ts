import * as zlib from 'node:zlib';
import { Decompress, decompress as fzstdDecompress } from 'fzstd';
import { CompressionError, DecompressionLimitError, UnsupportedCompressionError } from './errors.js';
import { translateZlibError } from './gzip.js';
import { scanZstdFrames, windowDescriptorFor, type ZstdFrame } from './zstd-frames.js';
import { zstdDecodeFrameNative } from './zstd-native.js';

/**
 * Zstandard. Node's zlib has zstd from 22.15 / 23.8; there both directions
 * are native. On older Node (tidemark supports 20) decompression falls back
 * to fzstd, a dependency-free pure-JS decoder, and compression raises
 * UnsupportedCompressionError: a consumer must read what others produce,
 * a producer can pick another codec.
 */

interface NativeZstd {
  zstdCompressSync(data: Uint8Array, options?: object): Buffer;
  zstdDecompressSync(data: Uint8Array, options?: { maxOutputLength?: number; chunkSize?: number }): Buffer;
  constants: Record<string, number>;
}

const native: NativeZstd | undefined =
  typeof (zlib as unknown as Partial<NativeZstd>).zstdDecompressSync === 'function'
    ? (zlib as unknown as NativeZstd)
    : undefined;

/** Whether this runtime can compress with zstd (decompression always works). */
export const zstdCompressionAvailable = native !== undefined;

export function zstdCompress(data: Uint8Array, level?: number): Buffer {
  if (native === undefined) {
    throw new UnsupportedCompressionError('zstd', `compression needs Node >= 22.15 (running ${process.version})`);
  }
  const params = level === undefined ? {} : { [native.constants.ZSTD_c_compressionLevel]: level };
  return native.zstdCompressSync(data, { params });
}

export function zstdDecompress(data: Uint8Array, limit: number, options: { forceJs?: boolean } = {}): Buffer {
  // The scan also guards the native path: declared sizes past the limit fail before zlib runs.
  const frames = scanZstdFrames(data, limit);
  const useNative = native !== undefined && options.forceJs !== true;
  if (useNative && frames.length === 1) return decodeFrameNative(native, data, frames[0], limit);
  // Frame by frame: Deno's zlib decodes only the first frame of concatenated input and drops the rest silently.
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const frame of frames) {
    const part = useNative
      ? decodeFrameNative(native, data, frame, limit - total)
      : decodeFrameJs(data, frame, limit - total);
    parts.push(part);
    total += part.length;
  }
  if (parts.length === 1) return asBuffer(parts[0]);
  return Buffer.concat(parts, total);
}

/** One frame: into the output slab through zstd-native.ts, else (and to word errors) zlib's public API. */
function decodeFrameNative(zstd: NativeZstd, data: Uint8Array, frame: ZstdFrame, limit: number): Buffer {
  const fast = zstdDecodeFrameNative(data, frame, limit);
  if (fast !== undefined) return fast;
  const bytes = frame.start === 0 && frame.end === data.length ? data : data.subarray(frame.start, frame.end);
  // A declared size (already checked against the limit) lets zlib write one buffer instead of 16 KiB chunks.
  const chunkSize = frame.contentSize >= 0 ? { chunkSize: Math.max(64, frame.contentSize + 1) } : {};
  let out: Buffer;
  try {
    out = zstd.zstdDecompressSync(bytes, { maxOutputLength: Math.max(1, Math.min(limit, 2 ** 31 - 1)), ...chunkSize });
  } catch (err) {
    throw translateZlibError('zstd', err, limit);
  }
  if (out.length > limit) throw new DecompressionLimitError('zstd', limit);
  return out;
}

function asBuffer(a: Uint8Array): Buffer {
  return Buffer.isBuffer(a) ? a : Buffer.from(a.buffer, a.byteOffset, a.length);
}

function wrap(err: unknown): Error {
  if (err instanceof CompressionError) return err;
  return new CompressionError('zstd', err instanceof Error ? err.message : String(err), { cause: err });
}

function decodeFrameJs(data: Uint8Array, frame: ZstdFrame, limit: number): Uint8Array {
  const bytes = data.subarray(frame.start, frame.end);
  if (frame.contentSize > 0) {
    // Declared size (checked against the limit and the blocks): fzstd allocates exactly that and decodes in place.
    // (A declared 0 would make fzstd fall back to allocating the window, so it takes the streamed path.)
    // Not into the output slab: fzstd's path for a caller's buffer measured 0.6-0.9x of this one.
    let out: Uint8Array;
    try {
      out = fzstdDecompress(bytes);
    } catch (err) {
      throw wrap(err);
    }
    if (out.length !== frame.contentSize) {
      throw new CompressionError('zstd', `frame declared ${frame.contentSize} bytes but held ${out.length}`);
    }
    return out;
  }
  return decodeStreamedFrameJs(bytes, frame, limit);
}

/**
 * A frame without a content size (what streaming compressors such as
 * zstd-jni in Kafka's producer write). fzstd would allocate the declared
 * window (up to 2 GiB) and slide it per block; no back-reference can reach
 * further than the output so far, so the window is shrunk to what this
 * frame can produce within the limit, on a copy of the header byte.
 */
function decodeStreamedFrameJs(bytes: Uint8Array, frame: ZstdFrame, limit: number): Uint8Array {
  const blockMax = Math.min(128 * 1024, frame.windowSize);
  const needed = Math.min(frame.windowSize, Math.max(Math.min(frame.outputBound, limit), blockMax));
  let input = bytes;
  if (needed < frame.windowSize && frame.windowDescriptorAt >= 0) {
    input = Uint8Array.from(bytes);
    input[frame.windowDescriptorAt - frame.start] = windowDescriptorFor(needed);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > limit) throw new DecompressionLimitError('zstd', limit);
    chunks.push(chunk);
  });
  try {
    stream.push(input, true);
  } catch (err) {
    throw wrap(err);
  }
  if (chunks.length === 1) return chunks[0];
  const out = Buffer.allocUnsafe(total);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return out;
}
