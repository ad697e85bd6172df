import { compress as snappyBlockCompress } from 'snappyjs';
import { CompressionError, DecompressionLimitError } from './errors.js';
import { commitOutput, reserveOutput } from './output-slab.js';
import { decodeSnappyElements, readSnappyBlockHeader, type SnappyBlock } from './snappy-block.js';
import { makeWasmSnappyDecoder, type SnappyBlocksDecoder } from './snappy-wasm.js';

/**
 * Snappy as Kafka carries it. The Java producer writes snappy-java's
 * "xerial" stream (org.xerial.snappy.SnappyOutputStream): an 8-byte magic,
 * int32 version and int32 compatible version (both 1), then blocks of
 * int32 big-endian compressed length + one raw Snappy block each. Other
 * clients (librdkafka can, sarama does) send a single raw Snappy block, which
 * SnappyInputStream also accepts, so both are decoded here. The framing and
 * every declared length are checked here; the blocks' elements decode in
 * WebAssembly (codecs/snappy.wat, via snappy-wasm.ts) where it runs, else in
 * snappy-block.ts's JS loop, which also names the fault in corrupt input.
 */

const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_SIZE = 16;
const XERIAL_VERSION = 1;
const XERIAL_COMPATIBLE_VERSION = 1;

/**
 * snappy-java's SnappyOutputStream.DEFAULT_BLOCK_SIZE is 32 KiB, and Kafka's
 * producer uses that default (`new SnappyOutputStream(out)` up to 3.7, then
 * `compression.snappy.block.size`, default 32 KiB, as KIP-390's builder has it).
 */
export const XERIAL_BLOCK_SIZE = 32 * 1024;

function hasXerialMagic(data: Uint8Array, at: number): boolean {
  if (data.length - at < XERIAL_MAGIC.length) return false;
  for (let i = 0; i < XERIAL_MAGIC.length; i++) if (data[at + i] !== XERIAL_MAGIC[i]) return false;
  return true;
}

function readInt32BE(data: Uint8Array, at: number): number {
  return (data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3];
}

/** Walks the xerial blocks and checks every declared size before anything is allocated. */
function scanXerialBlocks(data: Uint8Array, limit: number): { blocks: SnappyBlock[]; total: number } {
  const blocks: SnappyBlock[] = [];
  let total = 0;
  let pos = 0;
  while (pos < data.length) {
    // snappy-java tolerates streams concatenated header and all; so do we.
    if (hasXerialMagic(data, pos)) {
      if (data.length - pos < XERIAL_HEADER_SIZE) throw new CompressionError('snappy', 'truncated xerial header');
      pos += XERIAL_HEADER_SIZE;
      continue;
    }
    if (data.length - pos < 4) throw new CompressionError('snappy', 'truncated xerial block length');
    const size = readInt32BE(data, pos);
    pos += 4;
    if (size < 0 || size > data.length - pos) {
      throw new CompressionError('snappy', `xerial block of ${size} bytes runs past the end`);
    }
    const header = readSnappyBlockHeader(data, pos, pos + size);
    total += header.length;
    if (total > limit) throw new DecompressionLimitError('snappy', limit, `declared ${total} bytes so far`);
    blocks.push({ dataStart: header.dataStart, end: pos + size, length: header.length });
    pos += size;
  }
  return { blocks, total };
}

/** codecs/snappy.wat's decoder once compiled, null where it cannot be; undefined until first needed. */
let wasmDecoder: SnappyBlocksDecoder | null | undefined;

/** Which decoder snappyDecompress uses here: 'wasm', or 'js' where WebAssembly is unavailable. */
export function snappyDecoderImplementation(): 'wasm' | 'js' {
  if (wasmDecoder === undefined) wasmDecoder = makeWasmSnappyDecoder() ?? null;
  return wasmDecoder === null ? 'js' : 'wasm';
}

/**
 * Decodes every block into one output of `total` bytes: in WebAssembly where it runs and `decoder` allows it,
 * else (or when it finds the input corrupt, to name the fault with the same error) with the JS decoder.
 */
function decodeBlocks(data: Uint8Array, blocks: readonly SnappyBlock[], total: number, decoder: SnappyDecoder): Buffer {
  const out = reserveOutput(total);
  if (decoder === 'js' || snappyDecoderImplementation() === 'js' || !wasmDecoder?.(data, blocks, out, total)) {
    let d = 0;
    for (const block of blocks) d = decodeSnappyElements(data, block.dataStart, block.end, out, d, block.length);
  }
  return commitOutput(out, total);
}

/** 'wasm': codecs/snappy.wat's decoder where WebAssembly runs (the default); 'js': always the JS one (tests). */
export type SnappyDecoder = 'wasm' | 'js';

export function snappyDecompress(data: Uint8Array, limit: number, decoder: SnappyDecoder = 'wasm'): Buffer {
  if (!hasXerialMagic(data, 0)) return snappyDecompressRaw(data, limit, decoder);
  if (data.length < XERIAL_HEADER_SIZE) throw new CompressionError('snappy', 'truncated xerial header');
  const { blocks, total } = scanXerialBlocks(data, limit);
  return decodeBlocks(data, blocks, total, decoder);
}

/** One raw Snappy block, its declared length checked against the limit before allocating. */
export function snappyDecompressRaw(data: Uint8Array, limit: number, decoder: SnappyDecoder = 'wasm'): Buffer {
  const header = readSnappyBlockHeader(data, 0, data.length);
  if (header.length > limit) throw new DecompressionLimitError('snappy', limit, `declared ${header.length} bytes`);
  const block = { dataStart: header.dataStart, end: data.length, length: header.length };
  return decodeBlocks(data, [block], header.length, decoder);
}

/** Compresses into the xerial stream, 32 KiB per block, as Kafka's Java producer does. */
export function snappyCompress(data: Uint8Array, blockSize = XERIAL_BLOCK_SIZE): Buffer {
  const parts: Uint8Array[] = [];
  const header = Buffer.alloc(XERIAL_HEADER_SIZE);
  XERIAL_MAGIC.copy(header, 0);
  header.writeInt32BE(XERIAL_VERSION, 8);
  header.writeInt32BE(XERIAL_COMPATIBLE_VERSION, 12);
  parts.push(header);
  let total = XERIAL_HEADER_SIZE;
  for (let pos = 0; pos < data.length; pos += blockSize) {
    const block = snappyBlockCompress(data.subarray(pos, Math.min(pos + blockSize, data.length)));
    const size = Buffer.allocUnsafe(4);
    size.writeInt32BE(block.length, 0);
    parts.push(size, block);
    total += 4 + block.length;
  }
  return Buffer.concat(parts, total);
}

/** A single raw Snappy block (what sarama and some other clients send). */
export function snappyCompressRaw(data: Uint8Array): Buffer {
  const block = snappyBlockCompress(data);
  return Buffer.isBuffer(block) ? block : Buffer.from(block.buffer, block.byteOffset, block.length);
}
