/**
 * Reused Fetch response memory (src/consumer/fetch/frame-pool.ts, the consumer option `reuseFetchBuffers`): a
 * frame's memory is handed out again once the response and every chunk and batch carved from it have let go, and
 * never before. The property runs seeded random histories of responses (some carrying no chunks, some abandoned
 * unread, some cut off mid-read), takes, batches settled in any order, seeks and pauses (drops), checking at every
 * allocation that the memory handed out is held by nobody and at every step that every live view still holds the
 * bytes written into it.
 */
import { describe, expect, it } from 'vitest';
import { type CompletedFetch, FetchBuffer } from '../../../../src/consumer/fetch/fetch-buffer.js';
import { type FrameLease, FramePool, sizeClass } from '../../../../src/consumer/fetch/frame-pool.js';
import { PartitionState } from '../../../../src/consumer/positions.js';
import { FUZZ_SCALE, fuzzRng } from '../../fuzz/random.js';
import { chunkWith } from './chunks.js';

const KIB = 1024;

const chunkOf = chunkWith;

/** A view someone holds, and the byte every one of its bytes must still be. */
interface Held {
  view: Buffer;
  fill: number;
}

interface Batch extends Held {
  lease: FrameLease | undefined;
}

describe('FramePool with the fetch buffer', () => {
  it('hands a frame out again only once its response, chunks and batches have all let go (random histories)', () => {
    const cases = 60 * FUZZ_SCALE;
    let reusedTotal = 0;
    for (let seed = 1; seed <= cases; seed++) {
      const rand = fuzzRng(0x7e5e + seed);
      const maxIdle = rand.pick([256 * KIB, 2048 * KIB, 16384 * KIB]);
      const pool = new FramePool(maxIdle);
      const buffer = new FetchBuffer(1 << 30, () => {}, pool);
      const connections = [pool.connectionFrames(), pool.connectionFrames()];
      const partitions = [0, 1, 2, 3].map((p) => new PartitionState('t', p));
      const queued = new Map<CompletedFetch, Held>();
      const taken: { chunk: CompletedFetch; held: Held }[] = [];
      const batches: Batch[] = [];
      const seen = new Set<ArrayBuffer>();
      let frameId = 0;
      let reusedMemory = 0;

      const liveMemory = () => {
        const live = new Set<ArrayBuffer>();
        for (const h of queued.values()) live.add(h.view.buffer as ArrayBuffer);
        for (const t of taken) live.add(t.held.view.buffer as ArrayBuffer);
        for (const b of batches) live.add(b.view.buffer as ArrayBuffer);
        return live;
      };
      const allocate = (connection: (typeof connections)[number], size: number) => {
        const live = liveMemory();
        const frame = connection.allocate(size);
        const where = `seed ${seed}, frame ${frameId}`;
        expect(frame.length, where).toBe(size);
        // The property: memory handed out is held by no chunk or batch.
        if (live.has(frame.buffer as ArrayBuffer)) expect.fail(`${where}: memory handed out while still held`);
        if (seen.has(frame.buffer as ArrayBuffer)) reusedMemory++;
        seen.add(frame.buffer as ArrayBuffer);
        const fill = (frameId++ % 251) + 1;
        frame.fill(fill);
        return { frame, fill };
      };

      for (let step = 0; step < 300; step++) {
        const op = rand.int(10);
        if (op <= 2) {
          // A response: read, received, carved into 0-4 chunks, applied.
          const connection = rand.pick(connections);
          const { frame, fill } = allocate(connection, rand.between(65 * KIB, 700 * KIB));
          if (rand.chance(0.05)) continue; // the connection died mid-frame: never received
          connection.received(frame);
          if (rand.chance(0.1)) continue; // an abandoned request's answer: dropped unread, handled with the next
          for (let n = rand.int(5); n > 0; n--) {
            const start = rand.int(frame.length - 100);
            const view = frame.subarray(start, start + rand.between(1, Math.min(50_000, frame.length - start)));
            const chunk = chunkOf(rand.pick(partitions), view);
            buffer.push(chunk);
            queued.set(chunk, { view, fill });
          }
          connection.responseHandled();
        } else if (op <= 4) {
          const chunk = buffer.shift();
          if (chunk !== undefined) {
            taken.push({ chunk, held: queued.get(chunk)! });
            queued.delete(chunk);
          }
        } else if (op === 5 && taken.length > 0) {
          // A batch delivered from a chunk in hand holds the frame until it settles (delivery.ts).
          const { chunk, held } = rand.pick(taken);
          const lease = chunk.frame;
          lease?.hold();
          batches.push({ lease, view: held.view.subarray(0, 1 + rand.int(held.view.length)), fill: held.fill });
        } else if (op === 6 && taken.length > 0) {
          const [{ chunk }] = taken.splice(rand.int(taken.length), 1);
          buffer.release(chunk);
        } else if (op === 7 && batches.length > 0) {
          const [batch] = batches.splice(rand.int(batches.length), 1);
          batch.lease?.release();
        } else if (op === 8) {
          // A seek, pause or revoke of one partition drops what is queued for it.
          const state = rand.pick(partitions);
          buffer.drop((chunk) => chunk.state === state);
          for (const chunk of [...queued.keys()]) if (chunk.state === state) queued.delete(chunk);
        } else if (op === 9) {
          rand.pick(connections).responseHandled();
        }
        // Every view still held shows the bytes written into its frame (its ends: a reuse rewrites whole frames).
        for (const h of [...queued.values(), ...taken.map((t) => t.held), ...batches]) {
          if (h.view[0] !== h.fill || h.view[h.view.length - 1] !== h.fill) {
            expect.fail(`seed ${seed} step ${step}: a held view was overwritten`);
          }
        }
        expect(pool.stats.idleBytes).toBeLessThanOrEqual(maxIdle);
      }
      expect(pool.stats.reused).toBe(reusedMemory);
      reusedTotal += reusedMemory;
    }
    // Reuse happens: the same ArrayBuffer comes back for later frames.
    expect(reusedTotal).toBeGreaterThan(cases * 5);
    // The 60 seeded histories are CPU-bound work, not waiting: on a loaded 2-core machine they took 5.8 s alone and
    // 7.4 s beside the rest of the unit suite, past vitest's default 5 s, so the bound allows for a slow machine.
  }, 30_000);

  it('a finished response goes back, and the next frame of about its size reads into the same memory', () => {
    const pool = new FramePool(32 << 20);
    const buffer = new FetchBuffer(1 << 30, () => {}, pool);
    const connection = pool.connectionFrames();
    const first = connection.allocate(400 * KIB);
    connection.received(first);
    const chunk = chunkOf(new PartitionState('t', 0), first.subarray(100, 2000));
    buffer.push(chunk);
    connection.responseHandled();
    // Still held by the chunk: the next frame is new memory.
    const second = connection.allocate(290 * KIB);
    expect(second.buffer === first.buffer).toBe(false);
    connection.received(second);
    connection.responseHandled(); // carried no chunk: back at once
    buffer.release(buffer.shift()!);
    buffer.release(chunk); // a second release of one chunk lets go of nothing more
    expect(pool.stats).toMatchObject({ allocated: 2, reused: 0 });
    const third = connection.allocate(280 * KIB);
    // The smallest idle buffer that fits: the second response's.
    expect(third.buffer === second.buffer).toBe(true);
    const fourth = connection.allocate(300 * KIB);
    expect(fourth.buffer === first.buffer).toBe(true);
    expect(pool.stats).toMatchObject({ allocated: 2, reused: 2, idleBytes: 0 });
  });

  it('keeps at most maxIdleBytes idle; the rest is left to the garbage collector', () => {
    const pool = new FramePool(1 << 20);
    const connection = pool.connectionFrames();
    const frames = [0, 1, 2, 3].map(() => connection.allocate(400 * KIB));
    for (const f of frames) connection.received(f);
    connection.responseHandled();
    expect(pool.stats.idleBytes).toBe(2 * sizeClass(400 * KIB));
  });

  it('sizes memory in eighths of a power of two', () => {
    expect([65_537, 100_000, 131_072, 8_400_000].map(sizeClass)).toEqual([73_728, 106_496, 131_072, 9_437_184]);
    for (let size = 9; size < 1 << 22; size = Math.ceil(size * 1.37)) {
      expect(sizeClass(size)).toBeGreaterThanOrEqual(size);
      expect(sizeClass(size)).toBeLessThanOrEqual(size * 1.125 + 8);
    }
  });

  it('without a pool (the option off) chunks hold nothing and every frame is memory of its own', () => {
    const buffer = new FetchBuffer(1 << 30, () => {}, undefined);
    const seen = new Set<ArrayBufferLike>();
    for (let i = 0; i < 50; i++) {
      const frame = Buffer.allocUnsafeSlow(100 * KIB);
      const chunk = chunkOf(new PartitionState('t', 0), frame.subarray(0, 10));
      buffer.push(chunk);
      expect(chunk.frame).toBeUndefined();
      buffer.release(buffer.shift()!);
      seen.add(frame.buffer);
    }
    expect(seen.size).toBe(50);
  });
});
