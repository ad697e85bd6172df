import { CompressionError } from './errors.js';

/** Kafka's compression codec ids, as stored in bits 0-2 of a batch's attributes. */
export const CompressionCodec = {
  none: 0,
  gzip: 1,
  snappy: 2,
  lz4: 3,
  zstd: 4,
} as const;

export type CompressionCodecName = keyof typeof CompressionCodec;
export type CompressionCodecId = (typeof CompressionCodec)[CompressionCodecName];

const NAMES: readonly CompressionCodecName[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];

/** Default bound on one batch's decompressed payload. */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024;

export interface DecompressOptions {
  /** Largest decompressed payload accepted; more raises DecompressionLimitError. Default 64 MiB. */
  maxDecompressedBytes?: number;
}

export interface CompressOptions {
  /** Codec-specific level (gzip 0-9, zstd 1-22); the codec's default when absent. */
  level?: number;
  /**
   * The message format the payload is for. Only lz4 cares: magic 0 messages
   * carry the frame-descriptor checksum computed the old, broken way (KAFKA-3160).
   */
  magic?: number;
}

export function codecName(id: number): CompressionCodecName {
  const name = NAMES[id];
  if (name === undefined) throw new CompressionError(`codec ${id}`, 'unknown compression codec id');
  return name;
}

export function isCompressionCodecId(id: number): id is CompressionCodecId {
  return id >= 0 && id <= 4 && Number.isInteger(id);
}

export function limitOf(options: DecompressOptions | undefined): number {
  return options?.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
}
