import { CompressionError, DecompressionLimitError } from './errors.js';

/**
 * A structural pass over Zstandard frames (RFC 8878 §3.1) that reads only
 * headers: frame and block boundaries, the declared window and content
 * sizes, and an upper bound on each frame's output. It runs before the
 * pure-JS decoder, which allocates whatever window a header asks for, so
 * that hostile headers are refused while they are still just numbers.
 */

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const MAX_BLOCK_SIZE = 128 * 1024;

export interface ZstdFrame {
  start: number;
  end: number;
  /** Position of the window descriptor byte, or -1 for single-segment frames. */
  windowDescriptorAt: number;
  windowSize: number;
  /** Frame_Content_Size when the header declares it, else -1. */
  contentSize: number;
  /** Most bytes the frame's blocks can produce, from block headers alone. */
  outputBound: number;
}

function fail(reason: string): never {
  throw new CompressionError('zstd', reason);
}

function readLE(data: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + data[at + i];
  return v;
}

function scanFrame(data: Uint8Array, start: number): ZstdFrame {
  if (data.length - start < 6) fail('truncated frame header');
  const fhd = data[start + 4];
  if ((fhd & 0x08) !== 0) fail('reserved frame header bit is set');
  const singleSegment = (fhd & 0x20) !== 0;
  const dictIdSize = [0, 1, 2, 4][fhd & 3];
  const fcsFlag = fhd >>> 6;
  const fcsSize = fcsFlag === 0 ? (singleSegment ? 1 : 0) : 1 << fcsFlag;
  let pos = start + 5;
  let windowDescriptorAt = -1;
  let windowSize = 0;
  if (!singleSegment) {
    windowDescriptorAt = pos;
    const wd = data[pos++];
    const base = 2 ** (10 + (wd >>> 3));
    windowSize = base + (base / 8) * (wd & 7);
  }
  if (data.length - pos < dictIdSize + fcsSize) fail('truncated frame header');
  if (dictIdSize > 0 && readLE(data, pos, dictIdSize) !== 0) fail('frames that need a dictionary are not supported');
  pos += dictIdSize;
  let contentSize = -1;
  if (fcsSize > 0) {
    contentSize = readLE(data, pos, fcsSize) + (fcsSize === 2 ? 256 : 0);
    pos += fcsSize;
  }
  if (singleSegment) windowSize = contentSize;
  const blockMax = Math.min(MAX_BLOCK_SIZE, windowSize);
  let outputBound = 0;
  for (;;) {
    if (data.length - pos < 3) fail('truncated block header');
    const header = data[pos] | (data[pos + 1] << 8) | (data[pos + 2] << 16);
    pos += 3;
    const type = (header >>> 1) & 3;
    const size = header >>> 3;
    if (type === 3) fail('reserved block type');
    if (size > blockMax) fail(`block of ${size} bytes exceeds the maximum ${blockMax}`);
    const stored = type === 1 ? 1 : size;
    if (data.length - pos < stored) fail('block runs past the end of the input');
    outputBound += type === 2 ? blockMax : size;
    pos += stored;
    if ((header & 1) !== 0) break;
  }
  if (contentSize > outputBound) fail(`frame declares ${contentSize} bytes but its blocks hold at most ${outputBound}`);
  if ((fhd & 0x04) !== 0) {
    if (data.length - pos < 4) fail('truncated content checksum');
    pos += 4;
  }
  return { start, end: pos, windowDescriptorAt, windowSize, contentSize, outputBound };
}

/**
 * Splits `data` into frames (skippable frames dropped) and refuses input
 * whose declared content sizes add up past `limit`.
 */
export function scanZstdFrames(data: Uint8Array, limit: number): ZstdFrame[] {
  const frames: ZstdFrame[] = [];
  let declared = 0;
  let pos = 0;
  while (pos < data.length) {
    if (data.length - pos < 4) fail('truncated frame magic');
    const magic = readLE(data, pos, 4);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (data.length - pos < 8) fail('truncated skippable frame');
      const size = readLE(data, pos + 4, 4);
      if (size > data.length - pos - 8) fail('skippable frame runs past the end');
      pos += 8 + size;
      continue;
    }
    if (magic !== FRAME_MAGIC) fail(`bad frame magic 0x${magic.toString(16)}`);
    const frame = scanFrame(data, pos);
    if (frame.contentSize >= 0) {
      declared += frame.contentSize;
      if (declared > limit) throw new DecompressionLimitError('zstd', limit, `frames declare ${declared} bytes`);
    }
    frames.push(frame);
    pos = frame.end;
  }
  if (frames.length === 0) fail('no zstd frame in the input');
  return frames;
}

/**
 * The window descriptor byte for the smallest window of at least `size`
 * bytes (windows are 2^(10+e) + mantissa/8 of that).
 */
export function windowDescriptorFor(size: number): number {
  for (let exponent = 0; exponent < 32; exponent++) {
    const base = 2 ** (10 + exponent);
    for (let mantissa = 0; mantissa < 8; mantissa++) {
      if (base + (base / 8) * mantissa >= size) return (exponent << 3) | mantissa;
    }
  }
  return 0xff;
}
