import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { CompressionError, DecompressionLimitError } from './errors.js';

const gunzipAsync = promisify(zlib.gunzip);
const gzipAsync = promisify(zlib.gzip);

/** zlib reports an output past `maxOutputLength` as this code; anything else is bad input. */
export function translateZlibError(codec: string, err: unknown, limit: number): Error {
  const code = (err as { code?: string } | null)?.code;
  if (code === 'ERR_BUFFER_TOO_LARGE') return new DecompressionLimitError(codec, limit);
  const message = err instanceof Error ? err.message : String(err);
  return new CompressionError(codec, message, { cause: err });
}

/** zlib refuses a maxOutputLength of 0; an empty limit still means "nothing may come out". */
function zlibLimit(limit: number): number {
  return Math.max(1, Math.min(limit, 2 ** 31 - 1));
}

export function gzipCompress(data: Uint8Array, level?: number): Buffer {
  return zlib.gzipSync(data, level === undefined ? undefined : { level });
}

export function gzipDecompress(data: Uint8Array, limit: number): Buffer {
  let out: Buffer;
  try {
    out = zlib.gunzipSync(data, { maxOutputLength: zlibLimit(limit) });
  } catch (err) {
    throw translateZlibError('gzip', err, limit);
  }
  if (out.length > limit) throw new DecompressionLimitError('gzip', limit);
  return out;
}

/** Off-thread variants for large payloads; the records decoder itself stays synchronous. */
export async function gzipCompressAsync(data: Uint8Array, level?: number): Promise<Buffer> {
  return gzipAsync(data, level === undefined ? {} : { level });
}

export async function gzipDecompressAsync(data: Uint8Array, limit: number): Promise<Buffer> {
  let out: Buffer;
  try {
    out = await gunzipAsync(data, { maxOutputLength: zlibLimit(limit) });
  } catch (err) {
    throw translateZlibError('gzip', err, limit);
  }
  if (out.length > limit) throw new DecompressionLimitError('gzip', limit);
  return out;
}
