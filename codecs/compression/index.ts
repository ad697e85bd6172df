import {
  CompressionCodec,
  type CompressionCodecId,
  type CompressOptions,
  type DecompressOptions,
  limitOf,
} from './codec.js';
import { CompressionError, DecompressionLimitError } from './errors.js';
import { gzipCompress, gzipCompressAsync, gzipDecompress, gzipDecompressAsync } from './gzip.js';
import { lz4Compress, lz4Decompress } from './lz4.js';
import { snappyCompress, snappyDecompress } from './snappy.js';
import { zstdCompress, zstdDecompress } from './zstd.js';

export * from './codec.js';
export * from './errors.js';
export { gzipCompress, gzipDecompress } from './gzip.js';
export { lz4Compress, lz4Decompress } from './lz4.js';
export {
  snappyCompress,
  snappyCompressRaw,
  snappyDecompress,
  snappyDecompressRaw,
  XERIAL_BLOCK_SIZE,
} from './snappy.js';
export { xxhash32 } from './xxhash32.js';
export { zstdCompress, zstdCompressionAvailable, zstdDecompress } from './zstd.js';

function unknownCodec(codec: number): never {
  throw new CompressionError(`codec ${codec}`, 'unknown compression codec id');
}

/** Compresses a batch's records section with the codec named by its attribute id. */
export function compress(codec: CompressionCodecId, data: Uint8Array, options: CompressOptions = {}): Buffer {
  switch (codec) {
    case CompressionCodec.none:
      return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.length);
    case CompressionCodec.gzip:
      return gzipCompress(data, options.level);
    case CompressionCodec.snappy:
      return snappyCompress(data);
    case CompressionCodec.lz4:
      return lz4Compress(data, options.magic);
    case CompressionCodec.zstd:
      return zstdCompress(data, options.level);
    default:
      return unknownCodec(codec);
  }
}

export interface DecompressWithMagicOptions extends DecompressOptions {
  /** Message format of the enclosing batch; magic 0 lz4 has a non-standard header checksum. */
  magic?: number;
}

/**
 * Decompresses with the codec named by the attribute id. Output past
 * `maxDecompressedBytes` raises DecompressionLimitError; malformed input
 * raises CompressionError. Both are ProtocolErrors.
 */
export function decompress(codec: number, data: Uint8Array, options: DecompressWithMagicOptions = {}): Buffer {
  const limit = limitOf(options);
  switch (codec) {
    case CompressionCodec.none:
      if (data.length > limit) throw new DecompressionLimitError('none', limit);
      return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.length);
    case CompressionCodec.gzip:
      return gzipDecompress(data, limit);
    case CompressionCodec.snappy:
      return snappyDecompress(data, limit);
    case CompressionCodec.lz4:
      return lz4Decompress(data, limit, { ignoreHeaderChecksum: options.magic === 0 });
    case CompressionCodec.zstd:
      return zstdDecompress(data, limit);
    default:
      return unknownCodec(codec);
  }
}

/** As `decompress`, but gzip runs on libuv's thread pool; the others are fast enough inline. */
export async function decompressAsync(
  codec: number,
  data: Uint8Array,
  options: DecompressWithMagicOptions = {},
): Promise<Buffer> {
  if (codec === CompressionCodec.gzip) return gzipDecompressAsync(data, limitOf(options));
  return decompress(codec, data, options);
}

export async function compressAsync(
  codec: CompressionCodecId,
  data: Uint8Array,
  options: CompressOptions = {},
): Promise<Buffer> {
  if (codec === CompressionCodec.gzip) return gzipCompressAsync(data, options.level);
  return compress(codec, data, options);
}
