import { describe, expect, it } from 'vitest';
import { FrameSizeError } from '../../../src/network/errors.js';
import { FrameAssembler } from '../../../src/network/frame-assembler.js';

function framed(...payloads: Buffer[]): Buffer {
  return Buffer.concat(
    payloads.flatMap((p) => {
      const size = Buffer.alloc(4);
      size.writeInt32BE(p.length, 0);
      return [size, p];
    }),
  );
}

function collect(max = 1 << 20): { frames: Buffer[]; assembler: FrameAssembler } {
  const frames: Buffer[] = [];
  return { frames, assembler: new FrameAssembler(max, (f) => frames.push(f)) };
}

const payloads = [Buffer.from('first frame'), Buffer.alloc(0), Buffer.from('x'), Buffer.alloc(40, 7)];

describe('FrameAssembler', () => {
  it('hands out frames inside one chunk as views of that chunk, without copying', () => {
    const { frames, assembler } = collect();
    const chunk = framed(...payloads);
    assembler.push(chunk);
    expect(frames).toEqual(payloads);
    for (const f of frames) expect(f.buffer).toBe(chunk.buffer);
    expect(assembler.bufferedBytes).toBe(0);
  });

  it('reassembles the same frames whatever the chunk boundaries', () => {
    const stream = framed(...payloads);
    for (let cut1 = 0; cut1 <= stream.length; cut1++) {
      for (const cut2 of [cut1, Math.min(stream.length, cut1 + 1), Math.min(stream.length, cut1 + 5)]) {
        const { frames, assembler } = collect();
        assembler.push(stream.subarray(0, cut1));
        assembler.push(stream.subarray(cut1, cut2));
        assembler.push(stream.subarray(cut2));
        expect(frames).toEqual(payloads);
      }
    }
  });

  it('survives a stream fed one byte at a time', () => {
    const stream = framed(...payloads);
    const { frames, assembler } = collect();
    for (let i = 0; i < stream.length; i++) assembler.push(stream.subarray(i, i + 1));
    expect(frames).toEqual(payloads);
  });

  it('allocates a spanning frame once, at exactly its size', () => {
    const payload = Buffer.alloc(10_000, 3);
    const stream = framed(payload);
    const { frames, assembler } = collect();
    assembler.push(stream.subarray(0, 2)); // size prefix split too
    assembler.push(stream.subarray(2, 5000));
    expect(assembler.bufferedBytes).toBe(5000);
    assembler.push(stream.subarray(5000));
    expect(frames).toHaveLength(1);
    expect(frames[0]).toEqual(payload);
    // Its own ArrayBuffer of exactly the frame's size: no pool slice, no growth-and-copy.
    expect(frames[0].buffer.byteLength).toBe(payload.length);
    expect(frames[0].byteOffset).toBe(0);
  });

  it('refuses a negative size prefix', () => {
    const { assembler } = collect();
    const err = catchError(() => assembler.push(Buffer.from([0xff, 0xff, 0xff, 0xfe])));
    expect(err).toBeInstanceOf(FrameSizeError);
    expect((err as FrameSizeError).size).toBe(-2);
  });

  it('refuses a 2 GiB size prefix before allocating anything for it', () => {
    const { assembler } = collect(100 * 1024 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    const err = catchError(() => assembler.push(Buffer.from([0x7f, 0xff, 0xff, 0xff, 1, 2, 3])));
    expect(err).toBeInstanceOf(FrameSizeError);
    expect((err as FrameSizeError).size).toBe(0x7fffffff);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
  });

  it('hands out a thousand frames of one chunk as views, in order', () => {
    const many = Array.from({ length: 1000 }, (_, i) => Buffer.alloc(i % 37, i & 0xff));
    const chunk = framed(...many);
    const { frames, assembler } = collect();
    assembler.push(chunk);
    expect(frames).toEqual(many);
    expect(frames.every((f) => f.buffer === chunk.buffer)).toBe(true);
  });

  it('assembles a 16 MiB frame from 64 KiB chunks into one exactly-sized buffer, with frames on either side', () => {
    const giant = Buffer.allocUnsafe(16 * 1024 * 1024);
    for (let i = 0; i < giant.length; i += 4096) giant[i] = (i >>> 12) & 0xff;
    const before = Buffer.from('before');
    const after = Buffer.from('after');
    const stream = framed(before, giant, after);
    const { frames, assembler } = collect(32 * 1024 * 1024);
    for (let at = 0; at < stream.length; at += 65536) assembler.push(stream.subarray(at, at + 65536));
    expect(frames).toHaveLength(3);
    expect(frames[0]).toEqual(before);
    expect(frames[1].equals(giant)).toBe(true);
    expect(frames[1].buffer.byteLength).toBe(giant.length);
    expect(frames[2]).toEqual(after);
    expect(assembler.bufferedBytes).toBe(0);
  });

  it('refuses a corrupt size prefix split across chunks, at every split, before allocating for it', () => {
    for (const prefix of [
      [0xff, 0xff, 0xff, 0xfe],
      [0x7f, 0xff, 0xff, 0xff],
      [0x00, 0x10, 0x00, 0x01], // 1 MiB + 1: one byte over this assembler's maximum
    ]) {
      for (let cut = 1; cut < 4; cut++) {
        const { frames, assembler } = collect(1024 * 1024);
        assembler.push(framed(Buffer.from('ok')));
        assembler.push(Buffer.from(prefix.slice(0, cut)));
        expect(assembler.bufferedBytes).toBe(cut);
        const before = process.memoryUsage().arrayBuffers;
        const err = catchError(() => assembler.push(Buffer.from([...prefix.slice(cut), 1, 2, 3])));
        expect(err).toBeInstanceOf(FrameSizeError);
        expect((err as FrameSizeError).size).toBe(Buffer.from(prefix).readInt32BE(0));
        expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(512 * 1024);
        expect(frames).toEqual([Buffer.from('ok')]);
      }
    }
  });

  it('accepts a frame of exactly the maximum size', () => {
    const { frames, assembler } = collect(16);
    assembler.push(framed(Buffer.alloc(16)));
    expect(frames).toHaveLength(1);
    expect(() => assembler.push(framed(Buffer.alloc(17)))).toThrow(FrameSizeError);
  });
});

function catchError(fn: () => void): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}
