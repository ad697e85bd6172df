/**
 * int64 on the fetch hot path: the `long` package against native bigint and
 * plain-number arithmetic, for the three things the path does with 64-bit
 * values: a record's offset (batch baseOffset + the record's delta), an
 * int64 read from the wire, and offset bookkeeping (advance a position past
 * a batch and compare it with a high watermark). Every result is kept in a
 * small ring so nothing is optimised away and allocation costs count.
 *
 * `long` is not a dependency: install it into a scratch directory and point
 * the bench at it:
 *
 *   npm install --prefix /tmp/longbench long
 *   LONG_DIR=/tmp/longbench npx tsx bench/int64.ts     (writes bench/results/int64.md)
 *
 * One process; each round runs every variant of an operation for ROUND_MS of
 * CPU time in an order rotated round by round; median and min–max over
 * ROUNDS rounds of ns per operation (CPU time, user + system).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface LongValue {
  add(x: LongValue | number): LongValue;
  greaterThan(x: LongValue): boolean;
  toNumber(): number;
  low: number;
}
interface LongClass {
  fromBits(low: number, high: number): LongValue;
  fromNumber(n: number): LongValue;
  fromInt(n: number): LongValue;
  VERSION?: string;
}

const LONG_DIR = process.env.LONG_DIR ?? '/tmp/longbench';
const Long = createRequire(join(LONG_DIR, 'node_modules', 'x.js'))('long') as LongClass;
const longVersion = (
  JSON.parse(readFileSync(join(LONG_DIR, 'node_modules', 'long', 'package.json'), 'utf8')) as { version: string }
).version;

const ROUNDS = 15;
const ROUND_MS = 100;
const OPS = 100_000;
const RING = 1024;

const wire = Buffer.alloc(8 * RING);
for (let i = 0; i < RING; i++) wire.writeBigInt64BE(BigInt(1_000_000_000_000 + i * 977), i * 8);

const keptBig: bigint[] = new Array(RING).fill(0n);
const keptLong: LongValue[] = new Array(RING).fill(Long.fromInt(0));
const keptNum: number[] = new Array(RING).fill(0);
let sink = 0;

const BASE = 1_000_000_000_000;
const baseBig = BigInt(BASE);
const baseLong = Long.fromNumber(BASE);

type Variant = [string, () => void];
const OPERATIONS: Array<[string, Variant[]]> = [
  [
    'record offset = baseOffset + delta (kept)',
    [
      [
        'bigint: `base + BigInt(delta)`',
        () => {
          for (let i = 0; i < OPS; i++) keptBig[i & 1023] = baseBig + BigInt(i & 1023);
        },
      ],
      [
        '`long`: `base.add(delta)`',
        () => {
          for (let i = 0; i < OPS; i++) keptLong[i & 1023] = baseLong.add(i & 1023);
        },
      ],
      [
        'number: `base + delta`',
        () => {
          for (let i = 0; i < OPS; i++) keptNum[i & 1023] = BASE + (i & 1023);
        },
      ],
    ],
  ],
  [
    'int64 read from the wire (kept)',
    [
      [
        'bigint: `buf.readBigInt64BE(p)`',
        () => {
          for (let i = 0; i < OPS; i++) keptBig[i & 1023] = wire.readBigInt64BE((i & 1023) * 8);
        },
      ],
      [
        'bigint via number when within ±2^53, else `readBigInt64BE`',
        () => {
          for (let i = 0; i < OPS; i++) {
            const p = (i & 1023) * 8;
            const high = wire.readInt32BE(p);
            keptBig[i & 1023] =
              high >= -0x200000 && high < 0x200000
                ? BigInt(high * 4294967296 + wire.readUInt32BE(p + 4))
                : wire.readBigInt64BE(p);
          }
        },
      ],
      [
        '`long`: `Long.fromBits(low, high)`',
        () => {
          for (let i = 0; i < OPS; i++) {
            const p = (i & 1023) * 8;
            keptLong[i & 1023] = Long.fromBits(wire.readInt32BE(p + 4), wire.readInt32BE(p));
          }
        },
      ],
      [
        'number: `high * 2^32 + low` (exact below 2^53)',
        () => {
          for (let i = 0; i < OPS; i++) {
            const p = (i & 1023) * 8;
            keptNum[i & 1023] = wire.readInt32BE(p) * 4294967296 + wire.readUInt32BE(p + 4);
          }
        },
      ],
    ],
  ],
  [
    'bookkeeping: position = lastOffset + 1, compared with the high watermark',
    [
      [
        'bigint',
        () => {
          let position = baseBig;
          const hw = baseBig + 1_000_000_000n;
          for (let i = 0; i < OPS; i++) {
            const last = position + 500n;
            position = last + 1n;
            if (position > hw) sink++;
          }
          keptBig[0] = position;
        },
      ],
      [
        '`long`',
        () => {
          let position = baseLong;
          const hw = baseLong.add(1_000_000_000);
          for (let i = 0; i < OPS; i++) {
            const last = position.add(500);
            position = last.add(1);
            if (position.greaterThan(hw)) sink++;
          }
          keptLong[0] = position;
        },
      ],
      [
        'number',
        () => {
          let position = BASE;
          const hw = BASE + 1_000_000_000;
          for (let i = 0; i < OPS; i++) {
            const last = position + 500;
            position = last + 1;
            if (position > hw) sink++;
          }
          keptNum[0] = position;
        },
      ],
    ],
  ],
];

function nsPerOp(f: () => void): number {
  let runs = 0;
  const t0 = process.cpuUsage();
  let us = 0;
  while (us < ROUND_MS * 1000) {
    f();
    runs++;
    const used = process.cpuUsage(t0);
    us = used.user + used.system;
  }
  return (us * 1000) / (runs * OPS);
}

function stats(xs: number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
}

function main(): void {
  const loadStart = loadavg().map((x) => x.toFixed(1));
  const rows: string[] = [];
  for (const [op, variants] of OPERATIONS) {
    const ns: number[][] = variants.map(() => []);
    for (let r = 0; r <= ROUNDS; r++) {
      for (let k = 0; k < variants.length; k++) {
        const v = (k + r) % variants.length;
        const t = nsPerOp(variants[v][1]);
        if (r > 0) ns[v].push(t);
      }
    }
    const base = stats(ns[0]).median;
    variants.forEach(([name], v) => {
      const s = stats(ns[v]);
      rows.push(
        `| ${op} | ${name} | ${s.median.toFixed(2)} | ${s.min.toFixed(2)}–${s.max.toFixed(2)} | ${(s.median / base).toFixed(2)}× |`,
      );
    });
  }
  sink += Number(keptBig[3] & 1n) + keptLong[3].low + keptNum[3];
  const loadEnd = loadavg().map((x) => x.toFixed(1));
  const text = [
    '# int64 on the hot path: `long` against bigint and number',
    '',
    `Node ${process.version}, ${process.arch}, ${cpus().length} x ${cpus()[0]?.model.trim() ?? '?'}; long ${longVersion}`,
    `(installed into a scratch directory, not a dependency); load average ${loadStart.join(' / ')} (1 / 5 / 15 min)`,
    `at start, ${loadEnd.join(' / ')} at the end; \`LONG_DIR=/tmp/longbench npx tsx bench/int64.ts\`;`,
    `${new Date().toISOString().slice(0, 10)}. One process; ${ROUNDS} rounds after a warm-up round, each running every`,
    `variant of an operation for ${ROUND_MS} ms of CPU time in rotated order. ns per operation of CPU time (user +`,
    'system), median and min–max over the rounds; results are kept in a 1024-slot ring, so allocation and GC count.',
    '',
    '| operation | variant | ns/op | spread | vs bigint |',
    '| --- | --- | ---: | ---: | ---: |',
    ...rows,
    '',
    'Where each operation happens: a record offset per record the application asks the offset of (KafkaRecord',
    '`offset` is a lazy getter, bench/results/decode.md "Offsets"); int64 reads two or three per batch (base',
    'offset, producer id; a 16 KiB batch holds ~150 100-byte records) and a few per partition per response;',
    'bookkeeping once per batch and per fetch. So the per-record operation decides, and there `long` costs',
    'more than bigint (an object per value plus a call), as it does in bookkeeping; its only win, the raw read,',
    'is per batch and is given back by the first `add`. `long` is therefore not adopted. Plain numbers are',
    'fastest everywhere but are exact only below 2^53, and offsets are int64 by the offset contract',
    '(docs/ARCHITECTURE.md, "The offset contract"): they are used only where the value is a timestamp or a',
    'delta (readInt64AsNumber in codecs/records/decode-batch.ts), as before.',
    '',
  ].join('\n');
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'int64.md');
  writeFileSync(out, text);
  console.log(text);
  if (sink === 0.5) console.log(sink);
}

main();
