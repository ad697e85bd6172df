/**
 * Decompression micro-benchmark for the compressed fetch path (issue 18's
 * snappy / lz4 / zstd targets on Node 24). Payloads are the records section
 * of v2 batches holding the fetch bench's records (8-byte keys, 100-byte
 * values, bench/load.ts), at 16 KiB (Java's batch.size), 64 KiB (what the
 * bench's loader writes) and 1 MiB, compressed as producers write them:
 * snappy-java's xerial stream, Kafka's lz4 frame, zstd with a declared
 * content size (one-shot encoders: tidemark, librdkafka) and without one
 * (zstd-jni's stream in Kafka's Java producer). "decode" rows run
 * decodeRecords (CRC on) over a 1 MiB fetch response of 64 KiB batches.
 *
 * Each Node runs in one process: every round runs every variant for
 * ROUND_MS of CPU time in a rotated order, 15 rounds after a warm-up, and
 * reports medians. The process holds a live heap like a consumer's (500,000
 * small objects, the last 32 outputs kept), since on Node 24 the cost of
 * allocating output grows with the heap the collector has to mark. With
 * `--baseline <ref>`, that commit's codecs/ (from `git archive`) runs beside
 * today's as "before" rows.
 *
 *   npx tsx bench/decompress.ts [--baseline <ref>]   (Node 20 and Node 24; writes bench/results/decompress.md)
 *   DECOMPRESS_ROUNDS=31 DECOMPRESS_ONLY='64 KiB,decode' npx tsx bench/decompress.ts ...   (fewer variants, more rounds)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { type CompressionCodecId, compress, decompress } from '../codecs/compression/index.js';
import { decodeRecords } from '../codecs/records/decode.js';
import { encodeRecordBatch } from '../codecs/records/encode-batch.js';
import { currentNode, node24 } from './clients/process.js';
import { benchKey, benchValue } from './load.js';

const ROUNDS = Number(process.env.DECOMPRESS_ROUNDS ?? 15);
/** Only variants whose name contains one of these (comma-separated), e.g. `64 KiB,decode`; all when unset. */
const ONLY = (process.env.DECOMPRESS_ONLY ?? '').split(',').filter((x) => x !== '');
const ROUND_MS = 60;
const SIZES: Array<[number, string]> = [
  [16 * 1024, '16 KiB'],
  [64 * 1024, '64 KiB'],
  [1024 * 1024, '1 MiB'],
];
const CODECS: Array<[string, CompressionCodecId]> = [
  ['snappy', 2],
  ['lz4', 3],
  ['zstd', 4],
  ['zstd, no content size', 4],
];
const LIMIT = 64 * 1024 * 1024;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

type Decompress = typeof decompress;
type DecodeRecords = typeof decodeRecords;
interface Codecs {
  decompress: Decompress;
  decodeRecords: DecodeRecords;
}

/** Inputs as base64, made on a Node whose zlib has zstd, shared by both runs. */
interface Fixtures {
  payloads: Record<string, string>;
  compressed: Record<string, string>;
  responses: Record<string, { bytes: string; records: number }>;
}

function recordsFor(bytes: number, first: number) {
  const records = [];
  // 121 bytes per encoded record: 100 B value, 8 B key, 13 B of lengths and deltas.
  for (let i = first; (i - first) * 121 < bytes - 121; i++) {
    records.push({ key: benchKey(i, 8), value: benchValue(i, 100), timestamp: 1_700_000_000_000 + i });
  }
  return records;
}

function zstdNoContentSize(data: Uint8Array): Buffer {
  const z = zlib as unknown as {
    zstdCompressSync(d: Uint8Array, o: object): Buffer;
    constants: Record<string, number>;
  };
  return z.zstdCompressSync(data, { params: { [z.constants.ZSTD_c_contentSizeFlag]: 0 } });
}

function makeFixtures(): Fixtures {
  const fx: Fixtures = { payloads: {}, compressed: {}, responses: {} };
  for (const [size, label] of SIZES) {
    const payload = encodeRecordBatch(recordsFor(size, 0), { now: 1_700_000_000_000 }).subarray(61);
    fx.payloads[label] = payload.toString('base64');
    for (const [name, codec] of CODECS) {
      const c = name.includes('no content') ? zstdNoContentSize(payload) : compress(codec, payload);
      fx.compressed[`${name} ${label}`] = c.toString('base64');
    }
  }
  for (const [name, codec] of CODECS) {
    if (name.includes('no content')) continue;
    const parts: Buffer[] = [];
    let total = 0;
    let n = 0;
    while (total < 1024 * 1024) {
      const records = recordsFor(64 * 1024, n);
      parts.push(encodeRecordBatch(records, { now: 1_700_000_000_000, compression: codec, baseOffset: BigInt(n) }));
      total += parts[parts.length - 1].length;
      n += records.length;
    }
    fx.responses[name] = { bytes: Buffer.concat(parts).toString('base64'), records: n };
  }
  return fx;
}

/** Keeps outputs alive for a while, as a consumer's prefetch buffer does. */
const kept: unknown[] = new Array(32);
let keptAt = 0;
function keep(x: unknown): void {
  kept[keptAt] = x;
  keptAt = (keptAt + 1) % kept.length;
}

interface Variant {
  name: string;
  /** Bytes (or records, for decode rows) one call handles. */
  units: number;
  run: () => void;
}

function variantsFor(fx: Fixtures, impl: Codecs, tag: string): Variant[] {
  const out: Variant[] = [];
  for (const [, label] of SIZES) {
    const payload = Buffer.from(fx.payloads[label], 'base64');
    for (const [name, codec] of CODECS) {
      const input = Buffer.from(fx.compressed[`${name} ${label}`], 'base64');
      const check = impl.decompress(codec, input, { maxDecompressedBytes: LIMIT });
      if (!check.equals(payload)) throw new Error(`${tag} ${name} ${label} decompresses wrongly`);
      out.push({
        name: `${label} | ${name} | ${tag}`,
        units: payload.length,
        run: () => keep(impl.decompress(codec, input, { maxDecompressedBytes: LIMIT })),
      });
    }
  }
  for (const [name, response] of Object.entries(fx.responses)) {
    const bytes = Buffer.from(response.bytes, 'base64');
    const decoded = impl.decodeRecords(bytes, { checkCrc: true });
    const count = decoded.batches.reduce((n, b) => n + b.records.length, 0);
    if (count !== response.records) throw new Error(`${tag} decode ${name}: ${count} records`);
    out.push({
      name: `decode 1 MiB response | ${name} | ${tag}`,
      units: response.records,
      run: () => keep(impl.decodeRecords(bytes, { checkCrc: true })),
    });
  }
  return out;
}

/** One timed run: units per CPU second (user + system, GC threads included) and per wall second. */
function measure(v: Variant): { cpu: number; wall: number } {
  let units = 0;
  const c0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  let cpuUs = 0;
  while (cpuUs < ROUND_MS * 1000) {
    for (let k = 0; k < 4; k++) v.run();
    units += 4 * v.units;
    const used = process.cpuUsage(c0);
    cpuUs = used.user + used.system;
  }
  const wallNs = Number(process.hrtime.bigint() - w0);
  return { cpu: (units * 1e6) / cpuUs, wall: (units * 1e9) / wallNs };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface Row {
  name: string;
  cpu: number;
  min: number;
  max: number;
  wall: number;
}

async function loadBaseline(ref: string): Promise<{ codecs: Codecs; sha: string }> {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT }).toString().trim();
  const dir = join(ROOT, `.bench-baseline-decompress-${sha}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const tar = execFileSync('git', ['archive', sha, 'codecs'], { cwd: ROOT, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  const c = (await import(join(dir, 'codecs', 'compression', 'index.ts'))) as { decompress: Decompress };
  const r = (await import(join(dir, 'codecs', 'records', 'decode.ts'))) as { decodeRecords: DecodeRecords };
  return { codecs: { decompress: c.decompress, decodeRecords: r.decodeRecords }, sha };
}

async function child(fixtureFile: string, baselineRef: string | undefined): Promise<void> {
  const fx = JSON.parse(readFileSync(fixtureFile, 'utf8')) as Fixtures;
  const live: object[] = [];
  for (let i = 0; i < 500_000; i++) live.push({ i, s: `k${i}` });
  const variants: Variant[] = [];
  let sha = '';
  if (baselineRef !== undefined) {
    const base = await loadBaseline(baselineRef);
    sha = base.sha;
    variants.push(...variantsFor(fx, base.codecs, `before (${sha})`));
  }
  variants.push(...variantsFor(fx, { decompress, decodeRecords }, 'now'));
  if (ONLY.length > 0)
    variants.splice(0, variants.length, ...variants.filter((v) => ONLY.some((o) => v.name.includes(o))));
  const cpu: number[][] = variants.map(() => []);
  const wall: number[][] = variants.map(() => []);
  for (let r = 0; r <= ROUNDS; r++) {
    for (let k = 0; k < variants.length; k++) {
      const v = (k + r) % variants.length;
      const m = measure(variants[v]);
      if (r === 0) continue; // warm-up round
      cpu[v].push(m.cpu);
      wall[v].push(m.wall);
    }
  }
  const rows: Row[] = variants.map((v, i) => ({
    name: v.name,
    cpu: median(cpu[i]),
    min: Math.min(...cpu[i]),
    max: Math.max(...cpu[i]),
    wall: median(wall[i]),
  }));
  if (live.length !== 500_000) throw new Error('live heap lost');
  console.log(JSON.stringify({ node: process.version, rows }));
}

function runChild(node: string, args: string[]): { node: string; rows: Row[] } {
  const out = execFileSync(node, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
    cwd: ROOT,
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = out.toString().trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

function table(result: { node: string; rows: Row[] }): string[] {
  const lines = [
    `### Node ${result.node}`,
    '',
    '| input | codec | code | MB/s or records/s (CPU) | spread | wall | vs before |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: |',
  ];
  const before = new Map<string, number>();
  for (const r of result.rows) {
    const [input, codec, code] = r.name.split(' | ');
    const decode = input.startsWith('decode');
    const fmt = (x: number) => (decode ? `${(x / 1e6).toFixed(2)} M` : (x / 1e6).toFixed(0));
    const key = `${input}|${codec}`;
    if (code.startsWith('before')) before.set(key, r.cpu);
    const base = before.get(key);
    const ratio = base === undefined || code.startsWith('before') ? '' : `${(r.cpu / base).toFixed(2)}×`;
    lines.push(
      `| ${input} | ${codec} | ${code} | ${fmt(r.cpu)} | ${fmt(r.min)}–${fmt(r.max)} | ${fmt(r.wall)} | ${ratio} |`,
    );
  }
  return [...lines, ''];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const argValue = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const baselineRef = argValue('--baseline');
  if (args.includes('--make-fixtures')) {
    writeFileSync(argValue('--make-fixtures') as string, JSON.stringify(makeFixtures()));
    return;
  }
  const fixtureArg = argValue('--child');
  if (fixtureArg !== undefined) return child(fixtureArg, baselineRef);

  const n24 = node24();
  if ('unavailable' in n24) throw new Error(n24.unavailable);
  const n20 = currentNode();
  const fixtureFile = join(tmpdir(), `tidemark-decompress-fixtures-${process.pid}.json`);
  process.on('exit', () => rmSync(fixtureFile, { force: true }));
  execFileSync(n24.path, ['--import', 'tsx', fileURLToPath(import.meta.url), '--make-fixtures', fixtureFile], {
    cwd: ROOT,
  });
  const loadStart = loadavg().map((x) => x.toFixed(1));
  const childArgs = ['--child', fixtureFile, ...(baselineRef === undefined ? [] : ['--baseline', baselineRef])];
  const results = [n20.path, n24.path].map((node) => {
    console.error(`running on ${node}`);
    return runChild(node, childArgs);
  });
  const loadEnd = loadavg().map((x) => x.toFixed(1));
  const text = [
    '# Decompression benchmark',
    '',
    `${process.arch}, ${cpus().length} x ${cpus()[0]?.model.trim() ?? '?'}; load average ${loadStart.join(' / ')} (1 / 5 / 15 min)`,
    `at start, ${loadEnd.join(' / ')} at the end; \`npx tsx bench/decompress.ts${baselineRef === undefined ? '' : ` --baseline ${baselineRef}`}\`; ${new Date().toISOString().slice(0, 10)}.`,
    `${ONLY.length > 0 ? `Variants named with ${ONLY.map((o) => `"${o}"`).join(' or ')} only. ` : ''}One process per Node, ${ROUNDS} rounds after a warm-up round; in each round every variant runs ${ROUND_MS} ms of CPU`,
    'time, in an order rotated round by round. MB/s are 10^6 decompressed bytes per CPU second (user + system of',
    'the process, so garbage collection on helper threads counts), median and min–max over the rounds; wall beside it.',
    '"decode" rows are records per CPU second of decodeRecords (CRC-32C on) over a 1 MiB fetch response of',
    '64 KiB batches. The process keeps a consumer-like live heap (500,000 small objects, the last 32 outputs).',
    '',
    ...results.flatMap(table),
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'results', 'decompress.md'), text);
  console.log(text);
}

await main();
