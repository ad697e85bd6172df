/**
 * What both frame readers promise, whichever way the socket's bytes reach them (test/unit/network/frame-paths.ts):
 * the same frames however the stream is split, many frames per read, a giant frame in memory of exactly its size,
 * a bad size prefix refused before anything is allocated for it, and the bytes of an unfinished frame counted.
 */
import { describe, expect, it } from 'vitest';
import { FrameSizeError } from '../../../src/network/errors.js';
import { FRAME_PATHS, type FramePath, framed } from './frame-paths.js';

const payloads = [Buffer.from('first frame'), Buffer.alloc(0), Buffer.from('x'), Buffer.alloc(40, 7)];

function collect(path: FramePath, max = 1 << 20, scratchBytes?: number) {
  const frames: Buffer[] = [];
  return { frames, reader: path.open(max, (f) => frames.push(f), scratchBytes) };
}

function catchError(fn: () => void): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe.each(FRAME_PATHS.map((p) => [p.name, p] as const))('frame reader, %s path', (_name, path) => {
  it('reassembles the same frames whatever the read boundaries', () => {
    const stream = framed(...payloads);
    for (let cut1 = 0; cut1 <= stream.length; cut1++) {
      for (const cut2 of [cut1, Math.min(stream.length, cut1 + 1), Math.min(stream.length, cut1 + 5)]) {
        const { frames, reader } = collect(path);
        reader.feed(stream.subarray(0, cut1));
        reader.feed(stream.subarray(cut1, cut2));
        reader.feed(stream.subarray(cut2));
        expect(frames).toEqual(payloads);
        expect(reader.bufferedBytes).toBe(0);
      }
    }
  });

  it('reassembles frames split at every byte, with a scratch smaller than some frames (direct path)', () => {
    // 24 bytes of scratch: the 40-byte frame is read in place, the others in the scratch and copied out.
    const stream = framed(...payloads, ...payloads);
    for (let cut = 0; cut <= stream.length; cut++) {
      const { frames, reader } = collect(path, 1 << 20, 24);
      reader.feed(stream.subarray(0, cut));
      reader.feed(stream.subarray(cut));
      expect(frames).toEqual([...payloads, ...payloads]);
    }
  });

  it('survives a stream read one byte at a time', () => {
    const stream = framed(...payloads);
    const { frames, reader } = collect(path);
    for (let i = 0; i < stream.length; i++) reader.feed(stream.subarray(i, i + 1));
    expect(frames).toEqual(payloads);
  });

  it('counts the bytes of an unfinished frame at every point of the stream (what a close mid-frame reports)', () => {
    const stream = framed(...payloads);
    const ends: number[] = [];
    let at = 0;
    for (const p of payloads) {
      at += 4 + p.length;
      ends.push(at);
    }
    for (let cut = 0; cut <= stream.length; cut++) {
      const { reader } = collect(path, 1 << 20, 16);
      reader.feed(stream.subarray(0, cut));
      const lastEnd = Math.max(0, ...ends.filter((e) => e <= cut));
      expect(reader.bufferedBytes).toBe(cut - lastEnd);
    }
  });

  it('hands out a thousand frames of one read, in order', () => {
    const many = Array.from({ length: 1000 }, (_, i) => Buffer.alloc(i % 37, i & 0xff));
    const { frames, reader } = collect(path);
    reader.feed(framed(...many));
    expect(frames).toEqual(many);
  });

  it('assembles a 16 MiB frame from 64 KiB reads into one exactly-sized buffer, with frames on either side', () => {
    const giant = Buffer.allocUnsafe(16 * 1024 * 1024);
    for (let i = 0; i < giant.length; i += 4096) giant[i] = (i >>> 12) & 0xff;
    const before = Buffer.from('before');
    const after = Buffer.from('after');
    const stream = framed(before, giant, after);
    const { frames, reader } = collect(path, 32 * 1024 * 1024);
    for (let at = 0; at < stream.length; at += 65536) reader.feed(stream.subarray(at, at + 65536));
    expect(frames).toHaveLength(3);
    expect(frames[0]).toEqual(before);
    expect(frames[1].equals(giant)).toBe(true);
    // Its own ArrayBuffer of exactly the frame's size: no pool slice, no growth-and-copy.
    expect(frames[1].buffer.byteLength).toBe(giant.length);
    expect(frames[1].byteOffset).toBe(0);
    expect(frames[2]).toEqual(after);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('refuses a negative size prefix', () => {
    const { reader } = collect(path);
    const err = catchError(() => reader.feed(Buffer.from([0xff, 0xff, 0xff, 0xfe])));
    expect(err).toBeInstanceOf(FrameSizeError);
    expect((err as FrameSizeError).size).toBe(-2);
  });

  it('refuses a 2 GiB size prefix before allocating anything for it', () => {
    const { reader } = collect(path, 100 * 1024 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    const err = catchError(() => reader.feed(Buffer.from([0x7f, 0xff, 0xff, 0xff, 1, 2, 3])));
    expect(err).toBeInstanceOf(FrameSizeError);
    expect((err as FrameSizeError).size).toBe(0x7fffffff);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
  });

  it('refuses a foreign protocol\'s first bytes as a size prefix ("HTTP", a TLS record)', () => {
    for (const first of ['HTTP/1.1 400 Bad Request\r\n', '\x16\x03\x01\x02\x00\x01']) {
      const { frames, reader } = collect(path, 100 * 1024 * 1024);
      const bytes = Buffer.from(first, 'latin1');
      const err = catchError(() => reader.feed(bytes));
      expect(err).toBeInstanceOf(FrameSizeError);
      expect((err as FrameSizeError).size).toBe(bytes.readInt32BE(0));
      expect(frames).toEqual([]);
    }
  });

  it('refuses a corrupt size prefix split across reads, at every split, before allocating for it', () => {
    for (const prefix of [
      [0xff, 0xff, 0xff, 0xfe],
      [0x7f, 0xff, 0xff, 0xff],
      [0x00, 0x10, 0x00, 0x01], // 1 MiB + 1: one byte over this reader's maximum
    ]) {
      for (let cut = 1; cut < 4; cut++) {
        const { frames, reader } = collect(path, 1024 * 1024);
        reader.feed(framed(Buffer.from('ok')));
        reader.feed(Buffer.from(prefix.slice(0, cut)));
        expect(reader.bufferedBytes).toBe(cut);
        const before = process.memoryUsage().arrayBuffers;
        const err = catchError(() => reader.feed(Buffer.from([...prefix.slice(cut), 1, 2, 3])));
        expect(err).toBeInstanceOf(FrameSizeError);
        expect((err as FrameSizeError).size).toBe(Buffer.from(prefix).readInt32BE(0));
        expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(512 * 1024);
        expect(frames).toEqual([Buffer.from('ok')]);
      }
    }
  });

  it('accepts a frame of exactly the maximum size', () => {
    const { frames, reader } = collect(path, 16);
    reader.feed(framed(Buffer.alloc(16)));
    expect(frames).toHaveLength(1);
    expect(() => reader.feed(framed(Buffer.alloc(17)))).toThrow(FrameSizeError);
  });
});
