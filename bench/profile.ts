/**
 * Where tidemark's fetch client spends its time: runs bench/clients/tidemark-fetch.ts under
 * `node --cpu-prof` against a topic the fetch benchmark loaded, keeps only the samples of the measured
 * window (the child prints it on the monotonic clock the profiler shares) and prints the top self-time
 * functions and the share of each part of the path (CRC, record decode, Fetch response parsing, network
 * and framing, the consumer loop, GC, native code, idle). bench/results/profile.md is written from it.
 *
 *   npx tsx bench/profile.ts <bootstrap> <topic> <records> [--runs N] [--top N] [--keep DIR] [--reuse]
 *
 * `--reuse` profiles the child with the consumer option reuseFetchBuffers on (the bench's `tidemark-reuse`).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runProcess } from './clients/process.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The parts of the path, matched in order (first match wins) on the file of the sampled function or, for
 * Node's own code (Buffer copies, streams), of the nearest tidemark function up its stack: a Buffer copy
 * made by the frame assembler counts as network and framing.
 */
const CATEGORIES: readonly { name: string; test: (url: string, fn: string) => boolean }[] = [
  { name: 'idle (waiting for the broker)', test: (_u, fn) => fn === '(idle)' },
  { name: 'garbage collector', test: (_u, fn) => fn === '(garbage collector)' },
  { name: 'native (V8/libuv/C++: syscalls, Buffer internals)', test: (u, fn) => u === '' && fn === '(program)' },
  { name: 'CRC-32C', test: (u) => u.includes('/codecs/crc') },
  { name: 'record decode (codecs/records)', test: (u) => u.includes('/codecs/records/') },
  {
    name: 'Fetch response parsing (src/consumer/fetch, protocol)',
    test: (u) => /\/src\/consumer\/fetch\/|\/protocol\/|\/codecs\/reader/.test(u),
  },
  {
    name: 'network and framing (src/network, node:net/stream)',
    test: (u) => /\/src\/network\/|node:net|node:internal\/(stream|streams|net)/.test(u),
  },
  { name: 'consumer loop and delivery (src/consumer)', test: (u) => u.includes('/src/consumer/') },
  { name: 'bench child (tally)', test: (u) => u.includes('/bench/') },
  { name: 'other tidemark (src/cluster, src/…)', test: (u) => u.includes('/src/') },
  { name: 'other JS (Node internals and timers not under a tidemark call, tsx)', test: () => true },
];

const isOurs = (url: string) => /\/(src|codecs|protocol|bench)\//.test(url) && !url.includes('node_modules');

export interface ProfileSummary {
  /** Sampled time within the window. */
  totalMs: number;
  /** Self time of the busiest functions. */
  top: { name: string; ms: number; share: number }[];
  categories: { name: string; ms: number; share: number }[];
}

/** Self time per function and per category, over the samples within [fromUs, toUs]. */
export function summariseProfile(p: CpuProfile, fromUs: number, toUs: number, topN: number): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** The url the sample is charged to: its own if tidemark's (or a special node), else the nearest tidemark caller's. */
  const chargedUrl = (node: ProfileNode): string => {
    if (node.callFrame.url === '' || isOurs(node.callFrame.url)) return node.callFrame.url;
    for (let id = parent.get(node.id); id !== undefined; id = parent.get(id)) {
      const url = byId.get(id)?.callFrame.url ?? '';
      if (isOurs(url)) return url;
    }
    return node.callFrame.url;
  };
  const selfByFn = new Map<string, number>();
  const byCategory = new Map<string, number>();
  let t = p.startTime;
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    // A sample's time is the gap to the next one.
    const dt = p.timeDeltas[i + 1] ?? 0;
    if (t < fromUs || t > toUs) continue;
    const node = byId.get(p.samples[i]);
    if (node === undefined) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const fn = functionName === '' ? '(anonymous)' : functionName;
    const where = url === '' ? '' : ` ${url.replace(/^.*\/main\//, '').replace(/^file:\/\//, '')}:${lineNumber + 1}`;
    selfByFn.set(fn + where, (selfByFn.get(fn + where) ?? 0) + dt);
    const category = CATEGORIES.find((c) => c.test(chargedUrl(node), fn))?.name ?? 'other';
    byCategory.set(category, (byCategory.get(category) ?? 0) + dt);
    total += dt;
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ name, ms: us / 1000, share: total === 0 ? 0 : us / total }));
  return { totalMs: total / 1000, top: rows(selfByFn).slice(0, topN), categories: rows(byCategory) };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '1' },
      top: { type: 'string', default: '25' },
      keep: { type: 'string' },
      reuse: { type: 'boolean', default: false },
    },
  });
  const [bootstrap, topic, records] = positionals;
  if (bootstrap === undefined || topic === undefined || records === undefined) {
    process.stderr.write(
      'usage: npx tsx bench/profile.ts <bootstrap> <topic> <records> [--runs N] [--top N] [--keep DIR]\n',
    );
    process.exit(2);
  }
  const child = fileURLToPath(new URL('./clients/tidemark-fetch.ts', import.meta.url));
  for (let run = 1; run <= Number(values.runs); run++) {
    const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'tidemark-profile-')));
    const before = new Set(await readdir(dir).catch(() => []));
    // Through tsx, not compiled like the bench's children (bench/child-build.ts): samples are charged to tidemark's
    // files by their URL, which a bundle would make one file. keepNames wrappers show up as `__name` frames.
    const r = await runProcess(
      process.execPath,
      [
        '--cpu-prof',
        `--cpu-prof-dir=${dir}`,
        '--import',
        'tsx',
        child,
        bootstrap,
        topic,
        records,
        ...(values.reuse ? ['reuse'] : []),
      ],
      { timeoutMs: 10 * 60_000 },
    );
    if (r.code !== 0) throw new Error(`tidemark-fetch exited ${r.code}: ${r.stderr.slice(-800)}`);
    const result = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
    // One profile per thread (tsx's loader hooks run in their own); the main thread's is numbered 0 and sorts first.
    const file = (await readdir(dir))
      .filter((f) => f.endsWith('.cpuprofile') && !before.has(f))
      .sort()
      .find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
    if (file === undefined) throw new Error(`no .cpuprofile written to ${dir}`);
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    const [from, to] = result.windowUs as [number, number];
    const s = summariseProfile(profile, from, to, Number(values.top));
    const lines = [
      `run ${run}: ${Math.round(result.records / result.seconds).toLocaleString('en-US')} records/s, ${((result.cpuSeconds / result.records) * 1e6).toFixed(2)} CPU s per 1M records, ${s.totalMs.toFixed(0)} ms sampled in the window`,
      '',
      '| part of the path | ms | share |',
      '| --- | ---: | ---: |',
      ...s.categories.map((c) => `| ${c.name} | ${c.ms.toFixed(0)} | ${(c.share * 100).toFixed(1)}% |`),
      '',
      '| self time: function | ms | share |',
      '| --- | ---: | ---: |',
      ...s.top.map((f) => `| \`${f.name}\` | ${f.ms.toFixed(0)} | ${(f.share * 100).toFixed(1)}% |`),
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (values.keep === undefined) await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
