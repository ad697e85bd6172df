import { describe, expect, it } from 'vitest';
import { FrameAssembler } from '../../../src/network/frame-assembler.js';
import { framed } from './frame-paths.js';

function collect(max = 1 << 20): { frames: Buffer[]; assembler: FrameAssembler } {
  const frames: Buffer[] = [];
  return { frames, assembler: new FrameAssembler(max, (f) => frames.push(f)) };
}

const payloads = [Buffer.from('first frame'), Buffer.alloc(0), Buffer.from('x'), Buffer.alloc(40, 7)];

/** What only the chunk path does: frames inside one chunk are views of it. The rest: frame-readers.test.ts. */
describe('FrameAssembler', () => {
  it('hands out frames inside one chunk as views of that chunk, without copying', () => {
    const { frames, assembler } = collect();
    const chunk = framed(...payloads);
    assembler.push(chunk);
    expect(frames).toEqual(payloads);
    for (const f of frames) expect(f.buffer).toBe(chunk.buffer);
    expect(assembler.bufferedBytes).toBe(0);
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

  it('hands out a thousand frames of one chunk as views, in order', () => {
    const many = Array.from({ length: 1000 }, (_, i) => Buffer.alloc(i % 37, i & 0xff));
    const chunk = framed(...many);
    const { frames, assembler } = collect();
    assembler.push(chunk);
    expect(frames).toEqual(many);
    expect(frames.every((f) => f.buffer === chunk.buffer)).toBe(true);
  });
});
