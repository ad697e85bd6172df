/**
 * CRC-32C micro-benchmark: the library's crc32c against pure-JS slice-by-8 and
 * slice-by-16 variants (Int32Array word loads, DataView loads, byte loads) and
 * the WebAssembly slice-by-16 of codecs/crc32c.wat, at 100 B, 1 KiB, 16 KiB
 * and 1 MiB. One process; every round runs every variant once, in rotating
 * order, so load drifts hit all of them alike. Reports the median and the
 * spread (min-max) over the rounds of MB per CPU second (user + system) and
 * MB per wall second.
 *
 *   npx tsx bench/crc.ts            (writes bench/results/crc.md)
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import crc32cModule from 'crc-32/crc32c.js';
import { crc32c, crc32cImplementation, crc32cJs, TABLES } from '../codecs/crc.js';

const ROUNDS = Number(process.env.CRC_ROUNDS ?? 15);
const ROUND_MS = 60;
const SIZES: Array<[number, string]> = [
  [100, '100 B'],
  [1024, '1 KiB'],
  [16 * 1024, '16 KiB'],
  [1024 * 1024, '1 MiB'],
];

const T = TABLES;

function tail(data: Uint8Array, c: number, i: number, end: number): number {
  while (i < end) c = T[(c ^ data[i++]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** Slice-by-8 over aligned Int32Array word loads (two words per step). */
function slice8Words(data: Uint8Array, start: number, end: number): number {
  let c = -1;
  let i = start;
  if (end - start >= 64) {
    while (((data.byteOffset + i) & 3) !== 0) c = T[(c ^ data[i++]) & 0xff] ^ (c >>> 8);
    const words = new Int32Array(data.buffer, data.byteOffset + i, (end - i) >>> 2);
    const n = words.length & ~1;
    for (let w = 0; w < n; w += 2) {
      const a = words[w] ^ c;
      const b = words[w + 1];
      c =
        T[1792 + (a & 0xff)] ^
        T[1536 + ((a >>> 8) & 0xff)] ^
        T[1280 + ((a >>> 16) & 0xff)] ^
        T[1024 + (a >>> 24)] ^
        T[768 + (b & 0xff)] ^
        T[512 + ((b >>> 8) & 0xff)] ^
        T[256 + ((b >>> 16) & 0xff)] ^
        T[b >>> 24];
    }
    i += n * 4;
  }
  return tail(data, c, i, end);
}

/** Slice-by-16 with little-endian DataView loads (no alignment prologue). */
function slice16DataView(data: Uint8Array, start: number, end: number): number {
  let c = -1;
  let i = start;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const last = end - 16;
  for (; i <= last; i += 16) {
    const a = view.getInt32(i, true) ^ c;
    const b = view.getInt32(i + 4, true);
    const d = view.getInt32(i + 8, true);
    const e = view.getInt32(i + 12, true);
    c = mix16(a, b, d, e);
  }
  return tail(data, c, i, end);
}

/** Slice-by-16 assembling each word from four byte loads. */
function slice16Bytes(data: Uint8Array, start: number, end: number): number {
  let c = -1;
  let i = start;
  const last = end - 16;
  for (; i <= last; i += 16) {
    const a = (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24)) ^ c;
    const b = data[i + 4] | (data[i + 5] << 8) | (data[i + 6] << 16) | (data[i + 7] << 24);
    const d = data[i + 8] | (data[i + 9] << 8) | (data[i + 10] << 16) | (data[i + 11] << 24);
    const e = data[i + 12] | (data[i + 13] << 8) | (data[i + 14] << 16) | (data[i + 15] << 24);
    c = mix16(a, b, d, e);
  }
  return tail(data, c, i, end);
}

function mix16(a: number, b: number, d: number, e: number): number {
  return (
    T[3840 + (a & 0xff)] ^
    T[3584 + ((a >>> 8) & 0xff)] ^
    T[3328 + ((a >>> 16) & 0xff)] ^
    T[3072 + (a >>> 24)] ^
    T[2816 + (b & 0xff)] ^
    T[2560 + ((b >>> 8) & 0xff)] ^
    T[2304 + ((b >>> 16) & 0xff)] ^
    T[2048 + (b >>> 24)] ^
    T[1792 + (d & 0xff)] ^
    T[1536 + ((d >>> 8) & 0xff)] ^
    T[1280 + ((d >>> 16) & 0xff)] ^
    T[1024 + (d >>> 24)] ^
    T[768 + (e & 0xff)] ^
    T[512 + ((e >>> 8) & 0xff)] ^
    T[256 + ((e >>> 16) & 0xff)] ^
    T[e >>> 24]
  );
}

if (crc32cImplementation !== 'wasm') throw new Error('WebAssembly is unavailable');

type Crc = (data: Uint8Array, start: number, end: number) => number;
const VARIANTS: Array<[string, Crc]> = [
  ['JS slice-by-16, Int32Array words (`crc32cJs`, the library before)', crc32cJs],
  ['crc-32 package (slice-by-16, byte loads)', (d, s, e) => crc32cModule.buf(d.subarray(s, e), 0) >>> 0],
  ['slice-by-8, Int32Array words', slice8Words],
  ['slice-by-16, DataView words', slice16DataView],
  ['slice-by-16, words from byte loads', slice16Bytes],
  ['WebAssembly slice-by-16 (codecs/crc32c.wat, `crc32c` now)', crc32c],
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
    'beside it. Input starts at an odd byte offset, as batches inside a fetch response do.',
    '',
    '| size | variant | MB/s (CPU) | spread | MB/s (wall) | vs before |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...lines,
    '',
  ].join('\n');
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'crc.md');
  writeFileSync(out, text);
  console.log(text);
  if (sink === 0.5) console.log(sink);
}

main();
