/**
 * The fetch hot path before and after a change, in CPU time per record: a ~1 MiB records section of
 * uncompressed ~16 KiB batches (8-byte keys, 100 B or 1 KiB values, CRC checked), placed at an odd offset
 * inside a larger buffer as a Fetch response frame holds it, decoded two ways: by `decodeRecords` alone, and
 * by the consumer's ChunkReader in 64 KiB slices (what delivery runs: decode plus one ConsumerRecord per
 * record), every key and value read. "Before" is an earlier commit's codecs/ and src/ (a `git archive` copy,
 * bench/decode-input.ts) loaded into this same process; the variants alternate round by round. Prints a
 * Markdown table; nothing is written.
 *
 *   npx tsx bench/decode-hot.ts --baseline <git ref> [--rounds N] [--values 100,1024]
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeRecords } from '../codecs/records/decode.js';
import { ChunkReader } from '../src/consumer/fetch/chunk-reader.js';
import { alternate, buildSection, extractBaseline, median } from './decode-input.js';

type DecodeRecords = typeof decodeRecords;
type ChunkReaderClass = typeof ChunkReader;

/** Where the section starts inside its frame: odd, as batches inside a Fetch response are. */
const FRAME_OFFSET = 37;
/** delivery.ts's slice size. */
const SLICE_BYTES = 64 * 1024;

let sink = 0;

function decodeOnly(decode: DecodeRecords, section: Buffer, records: number): () => number {
  return () => {
    for (const batch of decode(section, { checkCrc: true }).batches) {
      for (const rec of batch.records) sink += (rec.key?.length ?? 0) + (rec.value?.length ?? 0);
    }
    return records;
  };
}

function chunkReader(Reader: ChunkReaderClass, section: Buffer, records: number): () => number {
  // Only the fields ChunkReader reads of a CompletedFetch.
  const chunk = {
    state: { topic: 'bench', partition: 0 },
    records: section,
    abortedTransactions: null,
    corrupt: false,
    nextOffset: BigInt(records),
  } as unknown as ConstructorParameters<ChunkReaderClass>[0];
  return () => {
    const reader = new Reader(chunk, { checkCrc: true, readCommitted: false });
    let position = 0n;
    let n = 0;
    while (!reader.done) {
      const slice = reader.next(position, SLICE_BYTES);
      for (const rec of slice.records) sink += (rec.key?.length ?? 0) + (rec.value?.length ?? 0);
      n += slice.records.length;
      position = slice.nextOffset;
    }
    return n;
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '15' }, values: { type: 'string' } },
  });
  if (values.baseline === undefined) throw new Error('usage: npx tsx bench/decode-hot.ts --baseline <git ref>');
  const rounds = Number(values.rounds);
  const { dir, sha } = extractBaseline(values.baseline);
  const before = {
    decode: ((await import(join(dir, 'codecs', 'records', 'decode.ts'))) as { decodeRecords: DecodeRecords })
      .decodeRecords,
    Reader: (
      (await import(join(dir, 'src', 'consumer', 'fetch', 'chunk-reader.ts'))) as { ChunkReader: ChunkReaderClass }
    ).ChunkReader,
  };
  const load = loadavg()[0].toFixed(1);
  const rows: string[] = [];
  for (const valueSize of (values.values ?? '100,1024').split(',').map(Number)) {
    const built = buildSection(valueSize, 0);
    const frame = Buffer.alloc(built.section.length + 2 * FRAME_OFFSET);
    built.section.copy(frame, FRAME_OFFSET);
    const section = frame.subarray(FRAME_OFFSET, FRAME_OFFSET + built.section.length);
    const results = alternate(
      [
        ['decodeRecords, before', decodeOnly(before.decode, section, built.records)],
        ['decodeRecords, after', decodeOnly(decodeRecords, section, built.records)],
        ['ChunkReader, before', chunkReader(before.Reader, section, built.records)],
        ['ChunkReader, after', chunkReader(ChunkReader, section, built.records)],
      ],
      rounds,
    );
    for (let v = 0; v < results.length; v += 2) {
      const nsBefore = results[v].rates.map((r) => 1e9 / r);
      const nsAfter = results[v + 1].rates.map((r) => 1e9 / r);
      const [b, a] = [median(nsBefore), median(nsAfter)];
      const path = results[v].name.split(',')[0];
      rows.push(
        `| ${valueSize} B | ${path} | ${b.toFixed(1)} (${Math.min(...nsBefore).toFixed(1)}–${Math.max(...nsBefore).toFixed(1)}) | ${a.toFixed(1)} (${Math.min(...nsAfter).toFixed(1)}–${Math.max(...nsAfter).toFixed(1)}) | ${(a / b).toFixed(2)}× |`,
      );
    }
  }
  console.log(
    [
      `Node ${process.version}, ${process.arch}, ${cpus().length} x ${cpus()[0]?.model.trim() ?? '?'}; load average ${load} at start, ${loadavg()[0].toFixed(1)} at the end.`,
      `Before: ${sha}. CPU ns per record (user + system), median and min–max of ${rounds} alternating rounds.`,
      '',
      '| values | path | before, ns | after, ns | after / before |',
      '| --- | --- | ---: | ---: | ---: |',
      ...rows,
    ].join('\n'),
  );
  if (sink === 0.5) console.log(sink);
}

await main();
