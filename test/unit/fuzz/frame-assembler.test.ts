import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { FrameSizeError } from '../../../src/network/errors.js';
import type { Rng } from '../../conformance/random.js';
import { FRAME_PATHS, type FramePath } from '../network/frame-paths.js';
import { bufferMemory } from './outcome.js';
import { FUZZ_SCALE, fuzzRng } from './random.js';

/**
 * The Connection's frame readers (both read paths, driven here without a
 * socket: test/unit/network/frame-paths.ts; the direct path with a scratch of
 * random size, so frames are read both in the scratch and in place) on random
 * streams cut into random chunks: valid streams give back
 * exactly their frames however they are split; a size prefix that is
 * negative or past the maximum, anywhere in the stream and split at any
 * byte, raises FrameSizeError before anything is allocated for it, after
 * handing out exactly the frames before it.
 */

const MAX_FRAME = 4096;
const STREAMS = 300 * FUZZ_SCALE;

function prefix(size: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(size | 0);
  return b;
}

function randomFrames(rand: Rng): Buffer[] {
  return Array.from({ length: rand.between(0, 6) }, () => rand.bytes(rand.chance(0.2) ? 0 : rand.between(1, 300)));
}

/** Cuts `stream` into chunks of random sizes, sometimes one byte each. */
function chunks(stream: Buffer, rand: Rng): Buffer[] {
  const out: Buffer[] = [];
  const oneByte = rand.chance(0.2);
  for (let at = 0; at < stream.length; ) {
    const n = oneByte ? 1 : rand.between(1, 64);
    out.push(stream.subarray(at, at + n));
    at += n;
  }
  return out;
}

function feed(path: FramePath, parts: Buffer[], rand: Rng): { frames: Buffer[]; error: unknown; buffered: number } {
  const frames: Buffer[] = [];
  const reader = path.open(MAX_FRAME, (f) => frames.push(Buffer.from(f)), rand.between(8, 600));
  try {
    for (const part of parts) reader.feed(part);
  } catch (error) {
    return { frames, error, buffered: reader.bufferedBytes };
  }
  return { frames, error: undefined, buffered: reader.bufferedBytes };
}

describe.each(FRAME_PATHS.map((p) => [p.name, p] as const))('fuzzing the frame reader, %s path', (_name, path) => {
  it('gives back exactly the frames of a valid stream, however it is chunked', () => {
    const rand = fuzzRng(0xf7a3e);
    for (let i = 0; i < STREAMS; i++) {
      const frames = randomFrames(rand);
      const stream = Buffer.concat(frames.flatMap((f) => [prefix(f.length), f]));
      const result = feed(path, chunks(stream, rand), rand);
      expect(result.error).toBeUndefined();
      expect(result.frames).toEqual(frames);
      expect(result.buffered).toBe(0);
    }
  });

  it('refuses a bad size prefix anywhere, split at every byte, after the frames before it', () => {
    const rand = fuzzRng(0xbad51);
    for (let i = 0; i < STREAMS / 3; i++) {
      const frames = randomFrames(rand);
      const bad = rand.pick([-1, -2147483648, MAX_FRAME + 1, 0x7fffffff, 0x40000000, -rand.between(2, 1 << 30)]);
      const stream = Buffer.concat([...frames.flatMap((f) => [prefix(f.length), f]), prefix(bad), rand.bytes(8)]);
      // Every split point of the bad prefix's neighbourhood, plus random chunking elsewhere.
      const badAt = stream.length - 12;
      for (let cut = Math.max(0, badAt - 2); cut <= badAt + 4; cut++) {
        const before = bufferMemory();
        const result = feed(path, [...chunks(stream.subarray(0, cut), rand), stream.subarray(cut)], rand);
        expect(result.error).toBeInstanceOf(FrameSizeError);
        expect(result.error).toBeInstanceOf(ProtocolError);
        expect((result.error as FrameSizeError).size).toBe(bad);
        expect(result.frames).toEqual(frames);
        // Nothing the size of the bad prefix was reserved (a few KiB of test buffers aside).
        expect(bufferMemory() - before).toBeLessThan(1 << 20);
      }
    }
  });

  it('on random bytes, hands out frames within the maximum or raises FrameSizeError', () => {
    const rand = fuzzRng(0x4a9d);
    for (let i = 0; i < STREAMS; i++) {
      const stream = rand.bytes(rand.between(0, 400));
      // Small plausible sizes now and then, so some frames complete.
      if (stream.length >= 4 && rand.chance(0.5)) stream.writeInt32BE(rand.between(0, stream.length - 4), 0);
      const result = feed(path, chunks(stream, rand), rand);
      if (result.error !== undefined) expect(result.error).toBeInstanceOf(FrameSizeError);
      for (const f of result.frames) expect(f.length).toBeLessThanOrEqual(MAX_FRAME);
      const handedOut = result.frames.reduce((n, f) => n + 4 + f.length, 0);
      if (result.error === undefined) expect(handedOut + result.buffered).toBe(stream.length);
    }
  });
});
