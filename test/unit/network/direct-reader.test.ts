/**
 * What only the direct path does (src/network/direct-reader.ts): the socket reads into a reused scratch and every
 * frame found there is copied out, so a frame handed out never shares the scratch; a frame larger than the scratch
 * is read in place, the socket writing into the frame itself. The rest: frame-readers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DirectFrameReader } from '../../../src/network/direct-reader.js';
import { FrameSizeError } from '../../../src/network/errors.js';
import type { FrameAllocator } from '../../../src/network/frame-allocator.js';
import { FrameAssembler } from '../../../src/network/frame-assembler.js';
import { framed } from './frame-paths.js';

/** Plays the kernel: writes `chunk` into the reader's buffers, one read per buffer, and notes each buffer. */
function socketReads(reader: DirectFrameReader, chunk: Buffer, buffers: Buffer[] = []): Buffer[] {
  for (let at = 0; at < chunk.length; ) {
    const into = reader.nextBuffer();
    buffers.push(into);
    const n = chunk.copy(into, 0, at);
    at += n;
    reader.read(n);
  }
  return buffers;
}

describe('DirectFrameReader', () => {
  it('copies frames out of the scratch: a frame handed out keeps its bytes when the scratch is read into again', () => {
    const frames: Buffer[] = [];
    const reader = new DirectFrameReader(1 << 20, (f) => frames.push(f), 64);
    const first = [Buffer.from('one'), Buffer.alloc(20, 1)];
    const buffers = socketReads(reader, framed(...first));
    const scratch = buffers[0].buffer;
    socketReads(reader, framed(Buffer.alloc(50, 0xee), Buffer.alloc(3, 0xdd)), buffers);
    // Every read went to the same scratch, and no frame is a view of it.
    expect(buffers.every((b) => b.buffer === scratch)).toBe(true);
    expect(frames.some((f) => f.buffer === scratch)).toBe(false);
    expect(frames).toEqual([...first, Buffer.alloc(50, 0xee), Buffer.alloc(3, 0xdd)]);
  });

  it('reads a frame larger than the scratch in place: the socket writes into the frame, we copy only the first read', () => {
    const frames: Buffer[] = [];
    const reader = new DirectFrameReader(16 << 20, (f) => frames.push(f), 64 * 1024);
    const giant = Buffer.alloc(8 << 20);
    for (let i = 0; i < giant.length; i += 997) giant[i] = i & 0xff;
    const stream = framed(Buffer.from('small'), giant, Buffer.from('after'));
    const buffers: Buffer[] = [];
    // The kernel has the whole response ready: each read fills the buffer it is given.
    socketReads(reader, stream, buffers);
    expect(frames).toHaveLength(3);
    expect(frames[1].equals(giant)).toBe(true);
    expect(frames[1].buffer.byteLength).toBe(giant.length);
    // First read: the scratch (the small frame, the giant's prefix and first bytes, copied once into the frame).
    // Second read: the rest of the giant frame, straight into its own memory. Then the scratch again.
    expect(buffers).toHaveLength(3);
    expect(buffers[1].buffer).toBe(frames[1].buffer);
    expect(buffers[1].byteOffset).toBe(64 * 1024 - 4 - 5 - 4);
    expect(buffers[1].length).toBe(giant.length - buffers[1].byteOffset);
    expect(buffers[2].buffer).toBe(buffers[0].buffer);
    expect(frames[2]).toEqual(Buffer.from('after'));
  });

  it('gives the socket a buffer to read into after a refused size prefix (it asks for one after every read)', () => {
    const reader = new DirectFrameReader(1024, () => {});
    const into = reader.nextBuffer();
    into.writeInt32BE(-1, 0);
    expect(() => reader.read(4)).toThrow(FrameSizeError);
    expect(reader.nextBuffer().length).toBeGreaterThan(0);
  });

  it('reads into a 64 KiB scratch by default, the size of a Node socket read', () => {
    const reader = new DirectFrameReader(1024, () => {});
    expect(reader.nextBuffer().length).toBe(64 * 1024);
  });

  it('refuses a scratch too small to hold a size prefix whatever its position', () => {
    expect(() => new DirectFrameReader(1024, () => {}, 7)).toThrow(RangeError);
  });

  it('reads frames larger than the scratch into memory from its allocator, and tells it of each one complete, in order', () => {
    const events: string[] = [];
    const handedOut: Buffer[] = [];
    const allocator: FrameAllocator = {
      allocate(size) {
        const frame = Buffer.alloc(size);
        handedOut.push(frame);
        events.push(`allocate ${size}`);
        return frame;
      },
      received(frame) {
        events.push(`received ${handedOut.indexOf(frame)}`);
      },
    };
    const frames: Buffer[] = [];
    const reader = new DirectFrameReader(
      1 << 20,
      (f) => {
        frames.push(f);
        events.push(`frame ${f.length}`);
      },
      64,
    );
    reader.allocator = allocator;
    const big = [Buffer.alloc(200, 1), Buffer.alloc(10, 2), Buffer.alloc(300, 3)];
    socketReads(reader, framed(...big));
    expect(frames).toEqual(big);
    // The small frame is copied out of the scratch as before; the large ones are the allocator's memory.
    expect(frames[0]).toBe(handedOut[0]);
    expect(frames[2]).toBe(handedOut[1]);
    expect(events).toEqual([
      'allocate 200',
      'received 0',
      'frame 200',
      'frame 10',
      'allocate 300',
      'received 1',
      'frame 300',
    ]);
  });

  it("the chunk path assembles a spanning frame in its allocator's memory too", () => {
    const received: Buffer[] = [];
    const memory = Buffer.alloc(100);
    const frames: Buffer[] = [];
    const assembler = new FrameAssembler(1 << 20, (f) => frames.push(f));
    assembler.allocator = { allocate: (size) => memory.subarray(0, size), received: (f) => received.push(f) };
    const bytes = framed(Buffer.alloc(40, 7));
    assembler.push(bytes.subarray(0, 10));
    assembler.push(bytes.subarray(10));
    expect(frames).toEqual([Buffer.alloc(40, 7)]);
    expect(frames[0].buffer).toBe(memory.buffer);
    expect(received).toEqual(frames);
  });
});
