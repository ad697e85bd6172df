/**
 * Why tidemark compiles its protocol definitions: decoding a Fetch response
 * with the compiled per-version decoder against a generic interpreter that
 * walks the same definition field by field (what a decoder derived at run
 * time without code generation does). Build-time generation would emit the
 * very source the load-time compiler builds, so it decodes at the same speed;
 * what it would save is the one-off compile, measured here too.
 * Run: npx tsx bench/protocol-decode.ts
 */
import { writeFileSync } from 'node:fs';
import { Reader } from '../codecs/reader.js';
import { Writer } from '../codecs/writer.js';
import { compileDecoder, compileEncoder } from '../protocol/compile.js';
import { Fetch } from '../protocol/index.js';
import type { Field, FieldType } from '../protocol/schema.js';
import { inRange } from '../protocol/versions.js';
import { median } from './report.js';

const VERSION = 17;
const PARTITIONS = 64;

function sampleResponse(): Buffer {
  const w = new Writer();
  compileEncoder(Fetch.response, VERSION)(w, {
    responses: [
      {
        topicId: 'AAECAwQFBgcICQoLDA0ODw',
        partitions: Array.from({ length: PARTITIONS }, (_, i) => ({
          partitionIndex: i,
          highWatermark: 123456n,
          lastStableOffset: 123456n,
          logStartOffset: 0n,
          abortedTransactions: [],
          records: Buffer.alloc(512, i),
        })),
      },
    ],
  });
  return w.toBuffer();
}

/** A straightforward interpreter over the definition: one switch per field, per value. */
function interpret(fields: readonly Field[], r: Reader, flexible: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!inRange(f.versions, VERSION)) continue;
    if (f.tag !== undefined) continue;
    out[f.name] = readValue(f.type, inRange(f.nullable, VERSION), r, flexible);
  }
  if (flexible) r.taggedFields();
  return out;
}

function readValue(t: FieldType, nullable: boolean, r: Reader, flexible: boolean): unknown {
  if (typeof t === 'object') {
    if (t.kind === 'struct') return interpret(t.fields, r, flexible);
    const n = flexible ? r.compactArrayLength(1, nullable) : r.arrayLength(1, nullable);
    if (n < 0) return null;
    const a: unknown[] = [];
    for (let i = 0; i < n; i++) a.push(readValue(t.of, false, r, flexible));
    return a;
  }
  switch (t) {
    case 'int8':
      return r.int8();
    case 'int16':
      return r.int16();
    case 'int32':
      return r.int32();
    case 'int64':
      return r.int64();
    case 'bool':
      return r.bool();
    case 'uuid':
      return r.uuid();
    case 'string':
      return flexible ? (nullable ? r.compactNullableString() : r.compactString()) : r.string();
    case 'bytes':
    case 'records':
      return flexible ? (nullable ? r.compactNullableBytes() : r.compactBytes()) : r.nullableBytes();
    default:
      throw new Error(`type ${t} not needed here`);
  }
}

function rate(fn: () => void, ms = 300): number {
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  return n / (ms / 1000);
}

const bytes = sampleResponse();
const t0 = performance.now();
const compiled = compileDecoder(Fetch.response, VERSION);
const compileMs = performance.now() - t0;
const interpreted = () => interpret(Fetch.response.fields, new Reader(bytes), true);
const fast = () => compiled(new Reader(bytes));
// Both must read the same partitions, or the comparison means nothing.
const partitionsOf = (v: Record<string, unknown>) =>
  ((v.responses as Array<{ partitions: unknown[] }>)[0]?.partitions ?? []).length;
if (partitionsOf(fast()) !== PARTITIONS || partitionsOf(interpreted()) !== PARTITIONS) {
  throw new Error('the decoders disagree on the sample response');
}
const rounds = 7;
const c: number[] = [];
const i: number[] = [];
for (let k = 0; k < rounds; k++) {
  c.push(rate(fast));
  i.push(rate(interpreted));
}
const table = [
  `# Protocol decode: compiled vs interpreted (Fetch response v${VERSION}, ${PARTITIONS} partitions)`,
  '',
  `Node ${process.version}; median of ${rounds} alternating rounds of 300 ms; ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| decoder | responses/s | partitions/s |',
  '| --- | ---: | ---: |',
  `| compiled (load-time, new Function) | ${Math.round(median(c)).toLocaleString('en-US')} | ${Math.round(median(c) * PARTITIONS).toLocaleString('en-US')} |`,
  `| interpreted (walks the definition) | ${Math.round(median(i)).toLocaleString('en-US')} | ${Math.round(median(i) * PARTITIONS).toLocaleString('en-US')} |`,
  '',
  `Compiling the Fetch v${VERSION} response decoder once took ${compileMs.toFixed(1)} ms (paid on first use of a negotiated version).`,
  'A build-time generator would emit the same source, so it decodes at the compiled speed and saves only that one-off cost.',
  '',
].join('\n');
writeFileSync(new URL('./results/protocol-decode.md', import.meta.url), table);
console.log(table);
