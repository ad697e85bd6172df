/**
 * The two ways a connection's bytes reach a frame reader, driven without a socket so the frame tests and the frame
 * fuzz run each property on both: chunks handed to the FrameAssembler ('data' events), and reads the socket makes
 * straight into the DirectFrameReader's buffers (the `onread` option). For the direct path, a chunk stands for what
 * the kernel has ready: it is written into as many of the reader's buffers as it takes, the way a socket read
 * fills at most the buffer it is given.
 */
import { DirectFrameReader } from '../../../src/network/direct-reader.js';
import { FrameAssembler } from '../../../src/network/frame-assembler.js';

export interface FrameFeed {
  /** Delivers bytes the way this path receives them; throws what the reader throws. */
  feed(chunk: Buffer): void;
  /** Bytes of an unfinished frame held (prefix included). */
  readonly bufferedBytes: number;
  /** Reads the socket made (direct path) or chunks pushed (chunk path). */
  readonly reads: number;
}

export interface FramePath {
  name: 'chunks' | 'direct';
  open(maxFrameBytes: number, onFrame: (frame: Buffer) => void, scratchBytes?: number): FrameFeed;
}

export const chunkPath: FramePath = {
  name: 'chunks',
  open(maxFrameBytes, onFrame) {
    const assembler = new FrameAssembler(maxFrameBytes, onFrame);
    let reads = 0;
    return {
      feed(chunk) {
        reads++;
        assembler.push(chunk);
      },
      get bufferedBytes() {
        return assembler.bufferedBytes;
      },
      get reads() {
        return reads;
      },
    };
  },
};

export const directPath: FramePath = {
  name: 'direct',
  open(maxFrameBytes, onFrame, scratchBytes) {
    const reader = new DirectFrameReader(maxFrameBytes, onFrame, scratchBytes);
    let reads = 0;
    return {
      feed(chunk) {
        for (let at = 0; at < chunk.length; ) {
          const into = reader.nextBuffer();
          // A socket given an empty buffer would read nothing, forever. (A plain throw: this runs once per read.)
          if (into.length === 0) throw new Error('the direct reader offered an empty buffer to read into');
          const n = chunk.copy(into, 0, at);
          at += n;
          reads++;
          reader.read(n);
        }
      },
      get bufferedBytes() {
        return reader.bufferedBytes;
      },
      get reads() {
        return reads;
      },
    };
  },
};

export const FRAME_PATHS: readonly FramePath[] = [chunkPath, directPath];

/** Size-prefixed frames, one after another, as a broker writes them. */
export function framed(...payloads: Buffer[]): Buffer {
  return Buffer.concat(
    payloads.flatMap((p) => {
      const size = Buffer.alloc(4);
      size.writeInt32BE(p.length, 0);
      return [size, p];
    }),
  );
}
