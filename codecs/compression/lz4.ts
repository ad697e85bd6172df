import { CompressionError, DecompressionLimitError } from './errors.js';
import { LZ4_OUTPUT_OVERFLOW, lz4BlockBound } from './lz4-block.js';
import { lz4BlockCompressor, lz4BlockDecompressor } from './lz4-wasm.js';
import { commitOutput, reserveOutput } from './output-slab.js';
import { xxhash32 } from './xxhash32.js';

/**
 * The LZ4 frame format as Kafka uses it (KafkaLZ4BlockOutputStream /
 * Lz4BlockOutputStream): magic 0x184D2204, FLG with version 01 and
 * independent blocks, BD = 64 KiB max block size, a header checksum byte,
 * blocks of int32 little-endian size (high bit = stored uncompressed), and
 * a zero end mark; no content size, no block or content checksums.
 *
 * The header checksum is xxHash32(descriptor) >> 8 & 0xff. Kafka's magic 0
 * messages hash the 4 magic bytes too (the KAFKA-3160 bug, kept for old
 * readers), so the encoder reproduces that for magic 0 and the decoder
 * accepts both forms. Decoding also accepts everything else the frame spec
 * allows: content size, block and content checksums, linked blocks, larger
 * block sizes, concatenated and skippable frames.
 *
 * Blocks go through ./lz4-wasm.ts: the WebAssembly block codec, or
 * ./lz4-block.ts's JS one where WebAssembly is missing (same bytes, same errors).
 */

const MAGIC = 0x184d2204;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const FLG_VERSION = 0x40;
const FLG_BLOCK_INDEPENDENCE = 0x20;
const FLG_BLOCK_CHECKSUM = 0x10;
const FLG_CONTENT_SIZE = 0x08;
const FLG_CONTENT_CHECKSUM = 0x04;
const FLG_DICT_ID = 0x01;
const BD_64KB = 4 << 4;
const KAFKA_BLOCK_SIZE = 64 * 1024;
const STORED_BLOCK = 0x80000000;

function fail(reason: string): never {
  throw new CompressionError('lz4', reason);
}

function readUInt32LE(data: Uint8Array, at: number): number {
  return (data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] << 24)) >>> 0;
}

interface FrameHeader {
  flg: number;
  maxBlockSize: number;
  contentSize: number;
  dataStart: number;
}

function readFrameHeader(data: Uint8Array, start: number, ignoreHeaderChecksum: boolean): FrameHeader {
  if (data.length - start < 7) fail('truncated frame header');
  const flg = data[start + 4];
  const bd = data[start + 5];
  if ((flg & 0xc0) !== FLG_VERSION) fail(`unsupported frame version ${flg >>> 6}`);
  if ((flg & FLG_DICT_ID) !== 0) fail('frames with a dictionary are not supported');
  const blockSizeId = (bd >>> 4) & 7;
  if (blockSizeId < 4) fail(`invalid block maximum size id ${blockSizeId}`);
  let pos = start + 6;
  let contentSize = -1;
  if ((flg & FLG_CONTENT_SIZE) !== 0) {
    if (data.length - pos < 9) fail('truncated frame header');
    contentSize = readUInt32LE(data, pos) + readUInt32LE(data, pos + 4) * 2 ** 32;
    pos += 8;
  }
  const hc = data[pos];
  if (!ignoreHeaderChecksum) {
    const correct = (xxhash32(data, start + 4, pos) >>> 8) & 0xff;
    const broken = (xxhash32(data, start, pos) >>> 8) & 0xff;
    if (hc !== correct && hc !== broken) fail('frame descriptor checksum mismatch');
  }
  return { flg, maxBlockSize: 1 << (2 * blockSizeId + 8), contentSize, dataStart: pos + 1 };
}

/**
 * Output buffer that starts at an upper bound from the first frame's block
 * headers (reserved in the output slab, and only what is used is taken) and
 * grows, never past the limit, when later concatenated frames need more.
 */
class Output {
  buf: Buffer;
  length = 0;

  constructor(
    initial: number,
    readonly limit: number,
  ) {
    this.buf = reserveOutput(Math.min(initial, limit));
  }

  /** Makes room for `n` more bytes where the limit allows; returns the usable end. */
  reserve(n: number): number {
    const want = Math.min(this.length + n, this.limit);
    if (want > this.buf.length) {
      // Not from the slab: the current buffer may still be the slab's open reservation.
      const next = Buffer.allocUnsafeSlow(Math.min(Math.max(want, this.buf.length * 2), this.limit));
      this.buf.copy(next, 0, 0, this.length);
      this.buf = next;
    }
    return want;
  }
}

/** An upper bound on the decompressed size, from the block headers alone. */
function estimateOutput(data: Uint8Array, header: FrameHeader): number {
  let total = 0;
  let pos = header.dataStart;
  const extra = (header.flg & FLG_BLOCK_CHECKSUM) !== 0 ? 4 : 0;
  while (data.length - pos >= 4) {
    const word = readUInt32LE(data, pos);
    const size = word & 0x7fffffff;
    if (size === 0) break;
    // One compressed byte expands to at most 255 (a run-length byte of 255).
    total += word >= STORED_BLOCK ? size : Math.min(header.maxBlockSize, size * 255 + 64);
    pos += 4 + size + extra;
  }
  // A declared content size is only a hint until the blocks confirm it.
  return header.contentSize >= 0 ? Math.min(total, header.contentSize) : total;
}

function decodeFrame(data: Uint8Array, start: number, out: Output, ignoreHeaderChecksum: boolean): number {
  const header = readFrameHeader(data, start, ignoreHeaderChecksum);
  if (header.contentSize > out.limit - out.length) {
    throw new DecompressionLimitError('lz4', out.limit, `frame declares ${header.contentSize} bytes`);
  }
  const frameOut = out.length;
  const blockChecksum = (header.flg & FLG_BLOCK_CHECKSUM) !== 0;
  const decompressBlock = lz4BlockDecompressor();
  let pos = header.dataStart;
  for (;;) {
    if (data.length - pos < 4) fail('truncated block size');
    const word = readUInt32LE(data, pos);
    pos += 4;
    if (word === 0) break;
    const stored = word >= STORED_BLOCK;
    const size = stored ? word - STORED_BLOCK : word;
    if (size > header.maxBlockSize) fail(`block of ${size} bytes exceeds the frame's ${header.maxBlockSize}`);
    if (size > data.length - pos - (blockChecksum ? 4 : 0)) fail('block runs past the end of the input');
    if (blockChecksum && xxhash32(data, pos, pos + size) !== readUInt32LE(data, pos + size)) {
      fail('block checksum mismatch');
    }
    const room = stored ? size : Math.min(header.maxBlockSize, size * 255 + 64);
    const end = out.reserve(room);
    if (stored) {
      if (size > end - out.length) throw new DecompressionLimitError('lz4', out.limit);
      out.buf.set(data.subarray(pos, pos + size), out.length);
      out.length += size;
    } else {
      const d = decompressBlock(data, pos, pos + size, out.buf, out.length, end, frameOut, fail);
      if (d === LZ4_OUTPUT_OVERFLOW) {
        if (end === out.limit) throw new DecompressionLimitError('lz4', out.limit);
        fail('block decodes to more than the frame maximum block size');
      }
      out.length = d;
    }
    pos += size + (blockChecksum ? 4 : 0);
  }
  if ((header.flg & FLG_CONTENT_CHECKSUM) !== 0) {
    if (data.length - pos < 4) fail('truncated content checksum');
    if (xxhash32(out.buf, frameOut, out.length) !== readUInt32LE(data, pos)) fail('content checksum mismatch');
    pos += 4;
  }
  if (header.contentSize >= 0 && out.length - frameOut !== header.contentSize) {
    fail(`frame declared ${header.contentSize} bytes but held ${out.length - frameOut}`);
  }
  return pos;
}

export interface Lz4DecompressOptions {
  /** Skip the frame-descriptor checksum, as Kafka's Java reader does for magic 0. */
  ignoreHeaderChecksum?: boolean;
}

export function lz4Decompress(data: Uint8Array, limit: number, options: Lz4DecompressOptions = {}): Buffer {
  let pos = 0;
  let out: Output | undefined;
  while (pos < data.length) {
    if (data.length - pos < 4) fail('truncated frame magic');
    const magic = readUInt32LE(data, pos);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (data.length - pos < 8) fail('truncated skippable frame');
      const size = readUInt32LE(data, pos + 4);
      if (size > data.length - pos - 8) fail('skippable frame runs past the end');
      pos += 8 + size;
      continue;
    }
    if (magic !== MAGIC) fail(`bad frame magic 0x${magic.toString(16)}`);
    if (out === undefined) {
      const header = readFrameHeader(data, pos, true);
      out = new Output(Math.max(estimateOutput(data, header), 64), limit);
    }
    pos = decodeFrame(data, pos, out, options.ignoreHeaderChecksum === true);
  }
  if (out === undefined) fail('no lz4 frame in the input');
  return commitOutput(out.buf, out.length);
}

/**
 * One frame laid out as Kafka's Java producer writes it. `magic` 0 selects
 * the broken header checksum that magic 0 readers expect. `headroom`: bytes
 * left unwritten before the frame in the returned buffer, for a header the
 * caller writes there (the producer's batch header), so the frame is not
 * copied once more behind it.
 */
export function lz4Compress(data: Uint8Array, magic = 2, headroom = 0): Buffer {
  const fullBlocks = Math.floor(data.length / KAFKA_BLOCK_SIZE);
  const rest = data.length - fullBlocks * KAFKA_BLOCK_SIZE;
  const bound = fullBlocks * (4 + lz4BlockBound(KAFKA_BLOCK_SIZE)) + (rest > 0 ? 4 + lz4BlockBound(rest) : 0);
  const out = Buffer.allocUnsafe(headroom + 7 + bound + 4);
  out.writeUInt32LE(MAGIC, headroom);
  out[headroom + 4] = FLG_VERSION | FLG_BLOCK_INDEPENDENCE;
  out[headroom + 5] = BD_64KB;
  out[headroom + 6] = (xxhash32(out, headroom + (magic === 0 ? 0 : 4), headroom + 6) >>> 8) & 0xff;
  let op = headroom + 7;
  const compressBlock = lz4BlockCompressor();
  for (let pos = 0; pos < data.length; pos += KAFKA_BLOCK_SIZE) {
    const end = Math.min(pos + KAFKA_BLOCK_SIZE, data.length);
    const blockEnd = compressBlock(data, pos, end, out, op + 4);
    const size = blockEnd - op - 4;
    if (size >= end - pos) {
      // Incompressible: store the block as is, flagged by the size's high bit.
      out.writeUInt32LE((STORED_BLOCK | (end - pos)) >>> 0, op);
      out.set(data.subarray(pos, end), op + 4);
      op += 4 + end - pos;
    } else {
      out.writeUInt32LE(size, op);
      op = blockEnd;
    }
  }
  out.writeUInt32LE(0, op);
  return out.subarray(0, op + 4);
}
