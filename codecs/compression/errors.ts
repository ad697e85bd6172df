import { ProtocolError, TidemarkError } from '../errors.js';

/**
 * Compressed bytes that do not decompress: bad magic, truncated frames,
 * back-references before the start, checksum mismatches. Bad bytes, so a
 * ProtocolError and never retriable.
 */
export class CompressionError extends ProtocolError {
  override name = 'CompressionError';
  /** The codec's name as Kafka spells it: `gzip`, `snappy`, `lz4`, `zstd`. */
  readonly codec: string;

  constructor(codec: string, reason: string, options?: { cause?: unknown }) {
    super(`${codec}: ${reason}`, { api: 'compression' }, options);
    this.codec = codec;
  }
}

/**
 * Decompressed data would exceed `maxDecompressedBytes`. Raised before the
 * oversized output is allocated, so a decompression bomb costs a few
 * kilobytes, not the memory it asks for. The records decoder fills in which
 * batch it was (`topic`, `partition`, `baseOffset`) when it knows.
 */
export class DecompressionLimitError extends CompressionError {
  override name = 'DecompressionLimitError';
  readonly limit: number;
  topic: string | undefined;
  partition: number | undefined;
  baseOffset: bigint | undefined;

  constructor(codec: string, limit: number, detail = '') {
    super(codec, `decompressed size exceeds the limit of ${limit} bytes${detail === '' ? '' : ` (${detail})`}`);
    this.limit = limit;
  }

  /** Adds the batch that held the oversized payload to the error and its message. */
  inBatch(topic: string | undefined, partition: number | undefined, baseOffset: bigint): this {
    this.topic = topic;
    this.partition = partition;
    this.baseOffset = baseOffset;
    const where = topic === undefined ? '' : `topic ${topic}, partition ${partition ?? '?'}, `;
    this.message = `${this.message} [${where}batch at offset ${baseOffset}]`;
    return this;
  }
}

/**
 * A codec this runtime cannot provide, e.g. zstd compression on a Node
 * version whose zlib has no zstd (decompression still works there).
 */
export class UnsupportedCompressionError extends TidemarkError {
  override name = 'UnsupportedCompressionError';
  readonly codec: string;

  constructor(codec: string, reason: string) {
    super(`${codec}: ${reason}`);
    this.codec = codec;
  }
}
