/**
 * What bench/decode.ts and bench/decode-hot.ts share: the input (a ~1 MiB records section of
 * ~16 KiB batches with JSON-like values), the alternating before/after rounds measured in CPU time,
 * their table rows, and the `git archive` copy of an earlier commit that "before" runs from.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CompressionCodecId, zstdCompressionAvailable } from '../codecs/compression/index.js';
import { crc32c } from '../codecs/crc.js';
import { encodeRecordBatch } from '../codecs/records/encode-batch.js';
import type { RecordInput } from '../codecs/records/encode-records.js';

export const SECTION_BYTES = 1024 * 1024;
/** Kafka's Java producer default batch.size. */
export const BATCH_BYTES = 16 * 1024;
/** CPU time per variant and round. */
export const ROUND_MS = 250;

/** JSON-ish text values: compressible the way real event payloads are, not all zeros. */
export function makeValue(size: number, i: number): Buffer {
  const words = ['click', 'view', 'user', 'session', 'price', 'region', 'eu-west', 'mobile', 'true', 'null'];
  let s = `{"id":${i},"ts":${1_700_000_000_000 + i}`;
  let j = i;
  while (s.length < size) {
    j = (j * 1103515245 + 12345) & 0x7fffffff;
    s += `,"${words[j % 10]}":"${words[(j >> 8) % 10]}${j % 997}"`;
  }
  return Buffer.from(`${s.slice(0, size - 1)}}`);
}

/** Two headers per record when asked: a trace id and a content type, as instrumented producers send. */
export function makeRecords(valueSize: number, count: number, start: number, withHeaders = false): RecordInput[] {
  const records: RecordInput[] = [];
  for (let i = 0; i < count; i++) {
    const key = Buffer.alloc(8);
    key.writeBigUInt64BE(BigInt(start + i));
    const headers = withHeaders
      ? [
          { key: 'traceparent', value: `00-${(start + i).toString(16).padStart(32, '0')}-00f067aa0ba902b7-01` },
          { key: 'content-type', value: 'application/json' },
        ]
      : undefined;
    records.push({ key, value: makeValue(valueSize, start + i), timestamp: 1_700_000_000_000 + start + i, headers });
  }
  return records;
}

/** zstd compression for data only: native zlib where Node has it, else the zstd CLI if installed. */
export function zstdFromCli(data: Buffer): Buffer {
  return execFileSync('zstd', ['-3', '-c', '-q'], { input: data, maxBuffer: 1 << 28 });
}

/** Builds ~1 MiB of consecutive batches of ~16 KiB (uncompressed) each. */
export function buildSection(
  valueSize: number,
  codec: CompressionCodecId,
  withHeaders = false,
): { section: Buffer; records: number } {
  const perBatch = Math.max(1, Math.floor(BATCH_BYTES / (valueSize + 20)));
  const parts: Buffer[] = [];
  let bytes = 0;
  let records = 0;
  let offset = 0n;
  while (bytes < SECTION_BYTES) {
    const recs = makeRecords(valueSize, perBatch, records, withHeaders);
    let batch: Buffer;
    if (codec === 4 && !zstdCompressionAvailable) {
      batch = withCompressedPayload(encodeRecordBatch(recs, { baseOffset: offset }), 4, zstdFromCli);
    } else {
      batch = encodeRecordBatch(recs, { baseOffset: offset, compression: codec });
    }
    parts.push(batch);
    bytes += batch.length;
    records += perBatch;
    offset += BigInt(perBatch);
  }
  return { section: Buffer.concat(parts), records };
}

/** Re-wraps an uncompressed batch's records with an externally compressed payload (fixing length and CRC). */
export function withCompressedPayload(batch: Buffer, codec: number, squeeze: (b: Buffer) => Buffer): Buffer {
  const payload = squeeze(batch.subarray(61));
  const out = Buffer.concat([batch.subarray(0, 61), payload]);
  out.writeInt32BE(out.length - 12, 8);
  out.writeInt16BE(out.readInt16BE(21) | codec, 21);
  out.writeUInt32BE(crc32c(out, 21, out.length), 17);
  return out;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Before/after variants measured side by side: every round runs each variant
 * for ROUND_MS of CPU time, in an order rotated round by round, so load
 * drifts hit all alike. `work` decodes once and returns the records it did.
 */
export function alternate(
  variants: Array<[string, () => number]>,
  rounds = 15,
): Array<{ name: string; rates: number[] }> {
  const rates: number[][] = variants.map(() => []);
  for (let r = 0; r <= rounds; r++) {
    for (let k = 0; k < variants.length; k++) {
      const v = (k + r) % variants.length;
      let n = 0;
      const t0 = process.cpuUsage();
      let elapsed = 0;
      while (elapsed < ROUND_MS * 1000) {
        n += variants[v][1]();
        const used = process.cpuUsage(t0);
        elapsed = used.user + used.system;
      }
      if (r > 0) rates[v].push(n / (elapsed / 1e6));
    }
  }
  return variants.map(([name], v) => ({ name, rates: rates[v] }));
}

export function spreadRow(label: string, rates: number[], base?: number): string {
  const s = [...rates].sort((a, b) => a - b);
  const med = s[Math.floor(s.length / 2)];
  const vs = base === undefined ? '1.00×' : `${(med / base).toFixed(2)}×`;
  return `| ${label} | ${fmt(med)} | ${fmt(s[0])}–${fmt(s[s.length - 1])} | ${vs} |`;
}

export function fmt(perSec: number): string {
  return perSec >= 1e6 ? `${(perSec / 1e6).toFixed(2)} M` : `${(perSec / 1e3).toFixed(0)} k`;
}

/**
 * The codecs/ and src/ trees of an earlier commit, for before/after rows in this one process: extracted
 * with `git archive` into a scratch directory inside the repository (so its imports of
 * crc-32 etc. resolve to the same node_modules) and removed when the bench ends. Returns that directory.
 */
export function extractBaseline(ref: string): { dir: string; sha: string } {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root }).toString().trim();
  const dir = join(root, `.bench-baseline-${sha}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const tar = execFileSync('git', ['archive', sha, 'codecs', 'src'], { cwd: root, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return { dir, sha };
}
