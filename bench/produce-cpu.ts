/**
 * Produce-path CPU micro-benchmark: the pieces of producing that run per record or per batch, without a
 * broker, on the produce workload's records (100-byte values of random letters, no key, no headers, ~1,150 to a
 * 128 KiB batch, as bench/clients/tidemark-produce.ts sends them):
 *
 * - `encode none` / `encode lz4`: encodeRecordBatch of one batch (sizing, varints, copy, CRC-32C, compression);
 * - `lz4 compress`: lz4Compress of the batch's raw records section alone;
 * - `batch none` / `batch lz4`: the producer's own per-batch path (src/producer/batch.ts): a ProducerBatch
 *   filled by tryAppend (each record written into the batch's buffer), encoded, then completed (every record
 *   resolved), with the tree's pool of batch buffers where it has one (src/producer/batch-buffers.ts).
 *
 * With `--baseline DIR` (a checkout of an earlier commit, e.g. `git archive REF | tar -x -C DIR` with its
 * node_modules linked) each piece runs from both trees in one process, in rotating order round by round, so
 * load drifts hit both alike. Reports medians over the rounds of MB of raw records per CPU second.
 *
 *   npx tsx bench/produce-cpu.ts [--baseline DIR] [--rounds N]
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { payloadPool } from './produce-settings.js';

interface ProducerBatchLike {
  tryAppend(record: unknown, batchSize: number): boolean;
  encode(codec: number, level: undefined): Buffer;
  complete(baseOffset: bigint, logAppendTime: bigint): void;
}

interface Tree {
  name: string;
  encodeRecordBatch: (records: unknown[], options: object) => Buffer;
  lz4Compress: (data: Uint8Array) => Buffer;
  /** A new empty producer batch of this tree, on its pool of batch buffers if it has one. */
  newBatch: () => ProducerBatchLike;
}

const BATCH_SIZE = 128 * 1024;

async function loadTree(name: string, root: string): Promise<Tree> {
  const batch = await import(resolve(root, 'codecs/records/encode-batch.ts'));
  const lz4 = await import(resolve(root, 'codecs/compression/lz4.ts'));
  const { ProducerBatch } = await import(resolve(root, 'src/producer/batch.ts'));
  const buffersFile = resolve(root, 'src/producer/batch-buffers.ts');
  const pool = existsSync(buffersFile) ? new (await import(buffersFile)).BatchBuffers(BATCH_SIZE, 8) : undefined;
  return {
    name,
    encodeRecordBatch: batch.encodeRecordBatch,
    lz4Compress: lz4.lz4Compress,
    newBatch: () => new ProducerBatch('t', 0, 0, 1, undefined, pool),
  };
}

const { values: args } = parseArgs({ options: { baseline: { type: 'string' }, rounds: { type: 'string' } } });
const rounds = Number(args.rounds ?? 15);
const trees = [await loadTree('this tree', resolve(import.meta.dirname, '..'))];
if (args.baseline !== undefined) trees.push(await loadTree(`baseline (${args.baseline})`, args.baseline));

// One batch as the producer holds it: PendingRecord-shaped, Buffers, a shared empty headers array.
const RECORDS_PER_BATCH = 1150;
const pool = payloadPool();
const NO_HEADERS: never[] = [];
const now = Date.now();
const batch = Array.from({ length: RECORDS_PER_BATCH }, (_, i) => ({
  topic: 't',
  partition: 0,
  key: null,
  value: pool[i],
  headers: NO_HEADERS,
  timestamp: now + (i >> 6),
  size: 110,
  settings: undefined,
  resolve: () => {},
  reject: () => {},
  group: undefined,
  index: 0,
}));
const rawSection = trees[0].encodeRecordBatch(batch, { compression: 0 }).subarray(61);
const rawBytes = rawSection.length;
const options = { producerId: 7n, producerEpoch: 0, baseSequence: 0 };

type Piece = { name: string; run: (t: Tree) => void };
const pieces: Piece[] = [
  { name: 'encode none', run: (t) => t.encodeRecordBatch(batch, { ...options, compression: 0 }) },
  { name: 'encode lz4', run: (t) => t.encodeRecordBatch(batch, { ...options, compression: 3 }) },
  { name: 'lz4 compress', run: (t) => t.lz4Compress(rawSection) },
  { name: 'batch none', run: (t) => producerBatch(t, 0) },
  { name: 'batch lz4', run: (t) => producerBatch(t, 3) },
];

/** One producer batch's life without the network: appended to, encoded, answered. */
function producerBatch(tree: Tree, codec: number): void {
  const b = tree.newBatch();
  for (const r of batch) b.tryAppend(r, BATCH_SIZE);
  b.encode(codec, undefined);
  b.complete(0n, -1n);
}

/** MB of raw records per CPU second over ~150 ms of repeated runs. */
function measure(piece: Piece, tree: Tree): number {
  for (let i = 0; i < 5; i++) piece.run(tree);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 150) {
    piece.run(tree);
    n++;
  }
  const cpu = process.cpuUsage(cpu0);
  return (n * rawBytes) / 1e6 / ((cpu.user + cpu.system) / 1e6);
}

const load0 = loadavg()[0];
const samples = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const piece of pieces) {
    for (let k = 0; k < trees.length; k++) {
      const tree = trees[(k + round) % trees.length];
      const key = `${piece.name}|${tree.name}`;
      const list = samples.get(key) ?? [];
      list.push(measure(piece, tree));
      samples.set(key, list);
    }
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(`node ${process.version}; ${rounds} rounds; batch of ${RECORDS_PER_BATCH} records, ${rawBytes} raw bytes`);
console.log(`load average ${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`);
console.log('| piece | tree | MB/CPU s (median) | min–max |');
console.log('| --- | --- | ---: | ---: |');
for (const [key, list] of samples) {
  const [piece, tree] = key.split('|');
  const fmt = (v: number) => v.toFixed(0);
  console.log(`| ${piece} | ${tree} | ${fmt(median(list))} | ${fmt(Math.min(...list))}–${fmt(Math.max(...list))} |`);
}
