/**
 * CRC-32C micro-benchmark: the library's crc32c (codecs/crc32c.wat: SIMD over
 * 1 KiB blocks, scalar slice-by-16 for the rest; where relaxed SIMD compiles,
 * assembled with relaxed swizzles, and then the plain module gets a row of its
 * own) against its scalar loop
 * alone, the WebAssembly module it replaced (codecs/crc32c-scalar.wat, now
 * its fallback where SIMD does not compile), the JS fallback (`crc32cJs`)
 * and the crc-32 package, at 100 B, 1 KiB, 16 KiB and 1 MiB. One process;
 * every round runs every variant once, in rotating order, so load drifts hit
 * all of them alike. Reports the median and the spread (min-max) over the
 * rounds of MB per CPU second (user + system) and MB per wall second.
 * (Rejected earlier: JS slice-by-8, DataView and byte-load words; their rows
 * stay in bench/results/crc.md.)
 *
 *   npx tsx bench/crc.ts            (writes bench/results/crc.md)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import crc32cModule from 'crc-32/crc32c.js';
import { crc32c, crc32cImplementation, crc32cJs, TABLES } from '../codecs/crc.js';
import { makeWasmCrc32c } from '../codecs/crc32c-wasm.js';

type Crc = (data: Uint8Array, start: number, end: number) => number;

const ROUNDS = Number(process.env.CRC_ROUNDS ?? 15);
const ROUND_MS = 60;
const SIZES: Array<[number, string]> = [
  [100, '100 B'],
  [1024, '1 KiB'],
  [16 * 1024, '16 KiB'],
  [1024 * 1024, '1 MiB'],
];

if (crc32cImplementation !== 'wasm') throw new Error('WebAssembly is unavailable');
const wasmScalar = makeWasmCrc32c(TABLES, { simd: false });
/** The module `crc32c` ran before the SIMD loop (main at 11b702b), now the fallback without SIMD. */
const wasmBefore = makeWasmCrc32c(TABLES, { modules: ['scalar'] });
if (wasmScalar === undefined || wasmBefore === undefined) throw new Error('WebAssembly is unavailable');
/** The SIMD loop with the plain `i8x16.swizzle`: a row of its own where `crc32c` runs the relaxed one. */
const wasmPlainSimd = makeWasmCrc32c(TABLES, { modules: ['simd'] });
const relaxedRuns = makeWasmCrc32c(TABLES, { modules: ['relaxed'] }) !== undefined;
const plainSimdRows: Array<[string, Crc]> =
  relaxedRuns && wasmPlainSimd !== undefined
    ? [['WebAssembly SIMD, `i8x16.swizzle` (where relaxed SIMD does not compile)', wasmPlainSimd]]
    : [];
const swizzle = relaxedRuns ? ': `i8x16.relaxed_swizzle`' : '';

const VARIANTS: Array<[string, Crc]> = [
  ['WebAssembly slice-by-16, serial XOR chain (`crc32c` before)', wasmBefore],
  ['WebAssembly slice-by-16, state entries XORed last (crc32c.wat `update` alone)', wasmScalar],
  ...plainSimdRows,
  [`WebAssembly SIMD, 16 streams per 1 KiB block + \`update\` for the rest (\`crc32c\` now${swizzle})`, crc32c],
  ['JS slice-by-16, Int32Array words (`crc32cJs`, the fallback)', crc32cJs],
  ['crc-32 package (slice-by-16, byte loads)', (d, s, e) => crc32cModule.buf(d.subarray(s, e), 0) >>> 0],
];

let sink = 0;

/** One timed run: bytes per CPU second and per wall second, over ROUND_MS of CPU time. */
function run(f: Crc, data: Uint8Array): { cpu: number; wall: number } {
  let bytes = 0;
  const c0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  let cpuUs = 0;
  while (cpuUs < ROUND_MS * 1000) {
    for (let k = 0; k < 16; k++) sink ^= f(data, 1, data.length);
    bytes += 16 * (data.length - 1);
    const used = process.cpuUsage(c0);
    cpuUs = used.user + used.system;
  }
  const wallNs = Number(process.hrtime.bigint() - w0);
  return { cpu: bytes / cpuUs, wall: (bytes * 1000) / wallNs };
}

function stats(xs: number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
}

function main(): void {
  const loadStart = loadavg().map((x) => x.toFixed(1));
  const lines: string[] = [];
  for (const [size, label] of SIZES) {
    // One byte more, used from offset 1: batches start at odd offsets inside fetch responses.
    const data = new Uint8Array(size + 1);
    for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
    const expected = crc32cModule.buf(data.subarray(1), 0) >>> 0;
    for (const [name, f] of VARIANTS) {
      if (f(data, 1, data.length) !== expected) throw new Error(`${name} computes a wrong CRC at ${label}`);
    }
    const cpu: number[][] = VARIANTS.map(() => []);
    const wall: number[][] = VARIANTS.map(() => []);
    for (let r = 0; r <= ROUNDS; r++) {
      for (let k = 0; k < VARIANTS.length; k++) {
        const v = (k + r) % VARIANTS.length;
        const m = run(VARIANTS[v][1], data);
        if (r === 0) continue; // warm-up round
        cpu[v].push(m.cpu);
        wall[v].push(m.wall);
      }
    }
    const base = stats(cpu[0]).median;
    for (let v = 0; v < VARIANTS.length; v++) {
      const c = stats(cpu[v]);
      const w = stats(wall[v]);
      lines.push(
        `| ${label} | ${VARIANTS[v][0]} | ${c.median.toFixed(0)} | ${c.min.toFixed(0)}–${c.max.toFixed(0)} | ${w.median.toFixed(0)} | ${(c.median / base).toFixed(2)}× |`,
      );
    }
    console.error(`${label} done`);
  }
  const loadEnd = loadavg().map((x) => x.toFixed(1));
  const text = [
    '# CRC-32C benchmark',
    '',
    `Node ${process.version}, ${process.arch}, ${cpus().length} x ${cpus()[0]?.model.trim() ?? '?'};`,
    `load average ${loadStart.join(' / ')} (1 / 5 / 15 min) at start, ${loadEnd.join(' / ')} at the end;`,
    `\`npx tsx bench/crc.ts\`; ${new Date().toISOString().slice(0, 10)}.`,
    `One process, ${ROUNDS} rounds after a warm-up round; in each round every variant runs ${ROUND_MS} ms of`,
    'CPU time, in an order rotated round by round. MB/s are 10^6 bytes per CPU second (user + system of the',
    'process; steadier than wall time on this shared machine), median and min–max over the rounds; wall MB/s',
    'beside it. Input starts at an odd byte offset, as batches inside a fetch response do. "vs before" is',
    'against the first row, the WebAssembly loop `crc32c` ran before the SIMD one.',
    '',
    '| size | variant | MB/s (CPU) | spread | MB/s (wall) | vs before |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...lines,
    '',
  ].join('\n');
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'crc.md');
  // A run replaces the file's top (title and table); its "## " sections (end-to-end figures, earlier runs of
  // variants measured and rejected) stay below the new table.
  const previous = existsSync(out) ? readFileSync(out, 'utf8') : '';
  const sections = previous.search(/^## /m);
  writeFileSync(out, sections < 0 ? text : `${text}\n${previous.slice(sections)}`);
  console.log(text);
  if (sink === 0.5) console.log(sink);
}

main();
