/**
 * Decode alone, no broker, on whichever Node runs it: CPU ns per record of the consumer's ChunkReader over a
 * ~1 MiB records section (64 KiB slices, CRC checked, every key and value read) for each compression codec,
 * and of the CRC-32C alone. Run compiled (bench/child-build.ts) on Node 20 and Node 24 alternately by
 * bench/runtime-compare.ts, to tell whether Node 24's extra CPU per record is in decode or elsewhere.
 *
 *   node <bundle> [--rounds N] [--codecs none,lz4,...] [--values 100]
 */
import { parseArgs } from 'node:util';
import type { CompressionCodecId } from '../codecs/compression/index.js';
import { crc32c } from '../codecs/crc.js';
import { ChunkReader } from '../src/consumer/fetch/chunk-reader.js';
import { alternate, buildSection, median } from './decode-input.js';

const SLICE_BYTES = 64 * 1024;
const FRAME_OFFSET = 37;
const CODEC_IDS: Record<string, CompressionCodecId> = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 };
let sink = 0;

function chunkReader(section: Buffer, records: number, copyOut: boolean): () => number {
  const chunk = {
    state: { topic: 'bench', partition: 0 },
    // ChunkReader copies out only a chunk in pooled memory (a frame lease): any object stands for one here.
    frame: copyOut ? {} : undefined,
    records: section,
    abortedTransactions: null,
    corrupt: false,
    nextOffset: BigInt(records),
  } as unknown as ConstructorParameters<typeof ChunkReader>[0];
  return () => {
    const reader = new ChunkReader(chunk, { checkCrc: true, readCommitted: false, copyOut });
    let position = 0n;
    let n = 0;
    while (!reader.done) {
      const slice = reader.next(position, SLICE_BYTES);
      for (const rec of slice.records) {
        // What the fetch child does with each record (bench/clients/tidemark-fetch.ts).
        const v = rec.value;
        if (v !== null) sink = (sink + v.readUInt32BE(0)) >>> 0;
        sink += rec.key?.length ?? 0;
      }
      n += slice.records.length;
      position = slice.nextOffset;
    }
    return n;
  };
}

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    codecs: { type: 'string', default: 'none,snappy,lz4,zstd' },
    values: { type: 'string', default: '100' },
    live: { type: 'string', default: '200000' },
  },
});
// A consumer-like live heap (the client's state, the application's own objects): V8 sizes its major-GC limits
// from the heap, so an empty heap would understate what external memory costs.
const live = Array.from({ length: Number(values.live) }, (_, i) => ({ i, name: `object-${i}` }));
const out: Record<string, number> = {};
const faults: Record<string, number> = {};
const done: Record<string, number> = {};
for (const valueSize of values.values.split(',').map(Number)) {
  const variants: Array<[string, () => number]> = [];
  for (const name of values.codecs.split(',')) {
    const built = buildSection(valueSize, CODEC_IDS[name]);
    const frame = Buffer.alloc(built.section.length + 2 * FRAME_OFFSET);
    built.section.copy(frame, FRAME_OFFSET);
    const section = frame.subarray(FRAME_OFFSET, FRAME_OFFSET + built.section.length);
    variants.push([`${name}/${valueSize}`, chunkReader(section, built.records, name === 'none')]);
    if (name === 'none') {
      variants.push([`none-views/${valueSize}`, chunkReader(section, built.records, false)]);
      variants.push([
        `crc/${valueSize}`,
        () => {
          sink += crc32c(section, 0, section.length);
          return built.records;
        },
      ]);
    }
  }
  // Page faults per 1,000 records of each variant (summed over its rounds): fresh memory the kernel had to map.
  const faulted = variants.map(([name, work]): [string, () => number] => [
    name,
    () => {
      const f0 = process.resourceUsage().minorPageFault;
      const n = work();
      faults[name] = (faults[name] ?? 0) + process.resourceUsage().minorPageFault - f0;
      done[name] = (done[name] ?? 0) + n;
      return n;
    },
  ]);
  for (const { name, rates } of alternate(faulted, Number(values.rounds))) out[name] = 1e9 / median(rates);
}
const faultsPer1k = Object.fromEntries(Object.keys(faults).map((k) => [k, (1000 * faults[k]) / done[k]]));
console.log(
  JSON.stringify({ node: process.version, nsPerRecord: out, faultsPer1k, sink: sink & 1, live: live.length }),
);
