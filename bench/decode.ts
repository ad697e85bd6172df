/**
 * Decode micro-benchmark for the fetch hot path: records/s and MB/s of
 * `decodeRecords` over a 1 MiB records section (the default
 * max.partition.fetch.bytes), for 100-byte and 1 KiB values with 8-byte
 * keys, CRC checks on and off, and every compression codec. Several rounds;
 * medians reported. Also measures the per-record offset strategies, the
 * CRC-32C implementations side by side, and (with --baseline) today's
 * decoder against an earlier commit's on records with headers.
 *
 *   npx tsx bench/decode.ts [--baseline <git ref>]     (writes bench/results/decode.md)
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CompressionCodecId, zstdCompressionAvailable } from '../codecs/compression/index.js';
import { crc32c, crc32cJs } from '../codecs/crc.js';
import { decodeRecords } from '../codecs/records/decode.js';
import { alternate, buildSection, extractBaseline, fmt, median, ROUND_MS, spreadRow } from './decode-input.js';

const ROUNDS = 9;
const CODECS: Array<[CompressionCodecId, string]> = [
  [0, 'none'],
  [1, 'gzip'],
  [2, 'snappy'],
  [3, 'lz4'],
  [4, 'zstd'],
];

interface Row {
  value: string;
  codec: string;
  crc: string;
  recordsPerSec: number;
  wireMBps: number;
  recordMBps: number;
}

let sink = 0;

/**
 * Records per second of CPU time (user + system) rather than wall time:
 * benchmark machines here are shared, and CPU time is far less disturbed
 * by other processes. Decoding is synchronous (zlib included), so all of
 * its work is on this thread.
 */
function measure(section: Buffer, records: number, checkCrc: boolean, touchOffsets = false): number[] {
  const rates: number[] = [];
  for (let r = 0; r < ROUNDS + 1; r++) {
    let n = 0;
    const t0 = process.cpuUsage();
    let elapsed = 0;
    while (elapsed < ROUND_MS * 1000) {
      const { batches } = decodeRecords(section, { checkCrc });
      for (const b of batches) {
        for (const rec of b.records) {
          sink += rec.value === null ? 0 : rec.value.length;
          if (touchOffsets) sink += Number(rec.offset & 1n);
        }
      }
      n += records;
      const used = process.cpuUsage(t0);
      elapsed = used.user + used.system;
    }
    if (r > 0) rates.push(n / (elapsed / 1e6)); // round 0 warms the JIT
  }
  return rates;
}

function benchDecode(): Row[] {
  const rows: Row[] = [];
  for (const valueSize of [100, 1024]) {
    for (const [codec, name] of CODECS) {
      let built: { section: Buffer; records: number };
      try {
        built = buildSection(valueSize, codec);
      } catch (err) {
        console.error(`skipping ${name}: ${(err as Error).message}`);
        continue;
      }
      const rawBytes = built.records * (valueSize + 8);
      for (const checkCrc of [true, false]) {
        const rate = median(measure(built.section, built.records, checkCrc));
        const perSec = rate / built.records;
        rows.push({
          value: valueSize === 100 ? '100 B' : '1 KiB',
          codec: name,
          crc: checkCrc ? 'on' : 'off',
          recordsPerSec: rate,
          wireMBps: (perSec * built.section.length) / 1e6,
          recordMBps: (perSec * rawBytes) / 1e6,
        });
      }
    }
  }
  return rows;
}

/**
 * Offset strategies. The decoder stores `offsetDelta` (a number) per record
 * and the batch's `baseOffset` (one bigint) and adds them in a getter. An
 * eager bigint per record would cost, for every record, what reading
 * `.offset` costs here (one BigInt addition and allocation), whether or not
 * anyone reads it; the isolated addition is timed too, for reference.
 */
function benchOffsets(): string[] {
  const { section, records } = buildSection(100, 0);
  const lazy = median(measure(section, records, true, false));
  const lazyTouched = median(measure(section, records, true, true));
  const base = 1_000_000_000n;
  const n = 5_000_000;
  const time = (f: () => void): number => {
    const t0 = process.cpuUsage();
    f();
    const used = process.cpuUsage(t0);
    return ((used.user + used.system) * 1000) / n;
  };
  const kept: bigint[] = new Array(1024);
  const addNs = median(
    [0, 1, 2, 3, 4].map(() =>
      time(() => {
        for (let i = 0; i < n; i++) kept[i & 1023] = base + BigInt(i & 1023);
      }),
    ),
  );
  sink += Number(kept[5] & 1n);
  return [
    `| lazy getter, offsets never read (the decoder as built) | ${fmt(lazy)} | ${(1e9 / lazy).toFixed(0)} ns |`,
    `| lazy getter, \`.offset\` read on every record | ${fmt(lazyTouched)} | ${(1e9 / lazyTouched).toFixed(0)} ns |`,
    `| eager bigint per record (costs at least the row above, read or not) | ≤ ${fmt(lazyTouched)} | ≥ ${(1e9 / lazyTouched).toFixed(0)} ns |`,
    '',
    `An isolated \`baseOffset + BigInt(delta)\` that is kept costs ${addNs.toFixed(0)} ns; in the decode loop it measured`,
    `${(1e9 / lazyTouched - 1e9 / lazy).toFixed(0)} ns per record (allocation and GC included), hence offsets stay lazy.`,
  ];
}

/** Batch boundaries of an uncompressed section: [start, end) of each batch. */
function batchRanges(section: Buffer): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let p = 0; p < section.length; ) {
    const end = p + 12 + section.readInt32BE(p + 8);
    ranges.push([p, end]);
    p = end;
  }
  return ranges;
}

/**
 * CRC-32C before (the JS slice-by-16 loop) and after (WebAssembly), inside
 * decoding: the decoder with its own check off plus one CRC per batch by
 * each implementation, which is exactly what the built-in check does.
 */
function benchCrcInDecode(): string[] {
  const rows: string[] = [];
  for (const valueSize of [100, 1024]) {
    const { section, records } = buildSection(valueSize, 0);
    const ranges = batchRanges(section);
    const decodeWith = (crc: (d: Uint8Array, s: number, e: number) => number) => (): number => {
      for (const [start, end] of ranges) sink ^= crc(section, start + 21, end);
      const { batches } = decodeRecords(section, { checkCrc: false });
      for (const b of batches) for (const rec of b.records) sink += rec.value === null ? 0 : rec.value.length;
      return records;
    };
    const [before, after] = alternate([
      ['JS', decodeWith(crc32cJs)],
      ['WebAssembly', decodeWith(crc32c)],
    ]);
    const base = median(before.rates);
    const label = valueSize === 100 ? '100 B' : '1 KiB';
    rows.push(spreadRow(`${label}, CRC by the JS loop (before)`, before.rates));
    rows.push(spreadRow(`${label}, CRC by WebAssembly (after)`, after.rates, base));
  }
  return rows;
}

type DecodeRecords = typeof decodeRecords;

/** The decoder of an earlier commit (bench/decode-input.ts extracts its tree). */
async function loadBaseline(ref: string): Promise<{ decode: DecodeRecords; sha: string }> {
  const { dir, sha } = extractBaseline(ref);
  const mod = (await import(join(dir, 'codecs', 'records', 'decode.ts'))) as { decodeRecords: DecodeRecords };
  return { decode: mod.decodeRecords, sha };
}

/**
 * Lazy headers: records with two headers, decoded by the baseline (headers
 * decoded eagerly) and by today's decoder (headers checked, kept as bytes,
 * decoded on first read), reading values only and reading headers too; and
 * records without headers, which must not get slower.
 */
function benchLazyHeaders(baseline: DecodeRecords, sha: string): string[] {
  const rows: string[] = [];
  for (const withHeaders of [true, false]) {
    const { section, records } = buildSection(100, 0, withHeaders);
    const run = (decode: DecodeRecords, readHeaders: boolean) => (): number => {
      const { batches } = decode(section, { checkCrc: true });
      for (const b of batches) {
        for (const rec of b.records) {
          sink += rec.value === null ? 0 : rec.value.length;
          if (readHeaders) sink += rec.headers.length;
        }
      }
      return records;
    };
    const label = withHeaders ? '2 headers' : 'no headers';
    const variants: Array<[string, () => number]> = [
      [`${label}, values read, before (${sha}, eager headers)`, run(baseline, false)],
      [`${label}, values read, after (lazy headers)`, run(decodeRecords, false)],
    ];
    if (withHeaders) {
      variants.push([`${label}, values and headers read, before (${sha})`, run(baseline, true)]);
      variants.push([`${label}, values and headers read, after`, run(decodeRecords, true)]);
    }
    const results = alternate(variants);
    for (let v = 0; v < results.length; v += 2) {
      const base = median(results[v].rates);
      rows.push(spreadRow(results[v].name, results[v].rates));
      rows.push(spreadRow(results[v + 1].name, results[v + 1].rates, base));
    }
  }
  return rows;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

async function main(): Promise<void> {
  const load = loadavg()[0].toFixed(1);
  const baselineRef = argValue('--baseline');
  // --headers-only: just the lazy-headers rows, printed, for a quick look (the results file needs a full run).
  const headersOnly = process.argv.includes('--headers-only');
  const rows = headersOnly ? [] : benchDecode();
  const offsetRows = headersOnly ? [] : benchOffsets();
  const crcRows = headersOnly ? [] : benchCrcInDecode();
  let headerRows: string[] = [];
  let baselineSha = '';
  if (baselineRef !== undefined) {
    const baseline = await loadBaseline(baselineRef);
    baselineSha = baseline.sha;
    headerRows = benchLazyHeaders(baseline.decode, baseline.sha);
  }
  const loadEnd = loadavg()[0].toFixed(1);
  const lines = [
    '# Decode benchmark',
    '',
    `Node ${process.version}, ${process.arch}, ${cpus().length} x ${cpus()[0]?.model.trim() ?? '?'} (load average ${load} at`,
    `start, ${loadEnd} at the end); \`npx tsx bench/decode.ts${baselineRef === undefined ? '' : ` --baseline ${baselineRef}`}\`; ${new Date().toISOString().slice(0, 10)}.`,
    `Input: ~1 MiB records section of consecutive v2 batches (~16 KiB of records each, the Java producer's`,
    `default batch.size), 8-byte keys, JSON-like values. Median of ${ROUNDS} rounds of ${ROUND_MS} ms of CPU time`,
    '(user + system; the machine is shared, so wall time is noisy); each round decodes the whole section',
    'repeatedly and reads every value. "wire MB/s" counts the fetched (possibly compressed) bytes,',
    '"record MB/s" the key + value bytes delivered.',
    `zstd: ${zstdCompressionAvailable ? 'native zlib' : 'pure-JS fzstd decoder (data made with the zstd CLI)'}.`,
    '',
    '| value | codec | CRC | records/s | wire MB/s | record MB/s |',
    '| --- | --- | --- | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.value} | ${r.codec} | ${r.crc} | ${fmt(r.recordsPerSec)} | ${r.wireMBps.toFixed(0)} | ${r.recordMBps.toFixed(0)} |`,
    ),
    '',
    '## Offsets (100-byte values, uncompressed, CRC on)',
    '',
    '| strategy | records/s | per record |',
    '| --- | ---: | ---: |',
    ...offsetRows,
    '',
    '## CRC-32C implementation, before and after (uncompressed, CRC on)',
    '',
    'The two variants alternate round by round in this one process (15 rounds); median and min–max.',
    '',
    '| variant | records/s | spread | vs before |',
    '| --- | ---: | ---: | ---: |',
    ...crcRows,
    '',
    '## Lazy headers, before and after (100-byte values, uncompressed, CRC on)',
    '',
    baselineRef === undefined
      ? 'Not measured in this run (needs `--baseline <git ref>`).'
      : `Before: the decoder of ${baselineSha}, loaded from \`git archive\` into this same process; the variants alternate round by round (15 rounds); median and min–max.`,
    '',
    '| variant | records/s | spread | vs before |',
    '| --- | ---: | ---: | ---: |',
    ...headerRows,
    '',
  ];
  const text = lines.join('\n');
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'decode.md');
  if (!headersOnly) writeFileSync(out, text);
  console.log(text);
  if (sink === 0.5) console.log(sink);
}

await main();
