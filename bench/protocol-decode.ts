/**
 * Protocol decode speed: a Fetch response decoded by the generated decoder
 * the library runs (protocol/generated/, written at build time), by the same
 * source compiled at run time with `new Function` (protocol/compile.ts, what
 * the library ran before generation), and by a generic interpreter that walks
 * the definition field by field (what a decoder without any code generation
 * does). Rounds alternate between the decoders, each round starting with a
 * different one, so machine load and garbage collection hit all alike.
 *
 * With TIDEMARK_BASELINE_COMPILER=<path to a compile.ts> (e.g. an older
 * commit's, saved beside protocol/compile.ts) its `compileDecoder` is measured
 * too, as the "before" of a change to the generator.
 * Run: npx tsx bench/protocol-decode.ts
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Reader } from '../codecs/reader.js';
import { Writer } from '../codecs/writer.js';
import { messageCodec } from '../protocol/codec.js';
import { compileDecoder, compileEncoder } from '../protocol/compile.js';
import { GENERATED_CODECS } from '../protocol/generated/index.js';
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

/** Decodes per second of CPU time (user + system): the machine is shared, so wall time would count waiting too. */
function rate(fn: () => void, ms = 300): number {
  let n = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < ms * 1000) {
    for (let i = 0; i < 20; i++) fn();
    n += 20;
    const d = process.cpuUsage(start);
    used = d.user + d.system;
  }
  return n / (used / 1e6);
}

const bytes = sampleResponse();
const t0 = performance.now();
const compiled = compileDecoder(Fetch.response, VERSION);
const compileMs = performance.now() - t0;
const generated = messageCodec(Fetch.response, VERSION);

type Decode = (r: Reader) => Record<string, unknown>;
const decoders: Array<{ label: string; decode: Decode }> = [
  { label: 'generated at build time (protocol/generated/, what the library runs)', decode: (r) => generated.decode(r) },
  {
    label: 'generated, called directly (GENERATED_CODECS)',
    decode: GENERATED_CODECS.FetchResponse.versions[VERSION].decode,
  },
  { label: 'compiled at run time (new Function, the same source)', decode: compiled },
];
const baseline = process.env.TIDEMARK_BASELINE_COMPILER;
if (baseline !== undefined) {
  const before = (await import(baseline)) as { compileDecoder: (def: unknown, version: number) => Decode };
  decoders.push({
    label: process.env.TIDEMARK_BASELINE_LABEL ?? `before: ${baseline}`,
    decode: before.compileDecoder(Fetch.response, VERSION),
  });
}
decoders.push({
  label: 'interpreted (walks the definition)',
  decode: (r) => interpret(Fetch.response.fields, r, true),
});

// Every decoder must read the same partitions, or the comparison means nothing.
const partitionsOf = (v: Record<string, unknown>) =>
  ((v.responses as Array<{ partitions: unknown[] }>)[0]?.partitions ?? []).length;
for (const d of decoders) {
  if (partitionsOf(d.decode(new Reader(bytes))) !== PARTITIONS) throw new Error(`${d.label} misreads the sample`);
}
const rounds = 15;
const rates = decoders.map(() => [] as number[]);
for (let k = 0; k < rounds; k++) {
  // Each round starts with a different decoder: whichever runs right after the interpreter pays for the
  // garbage it left, so a fixed order would charge that to one decoder every time.
  for (let j = 0; j < decoders.length; j++) {
    const n = (j + k) % decoders.length;
    rates[n].push(rate(() => decoders[n].decode(new Reader(bytes))));
  }
}
const row = (label: string, r: number[]) =>
  `| ${label} | ${Math.round(median(r)).toLocaleString('en-US')} | ${Math.round(median(r) * PARTITIONS).toLocaleString('en-US')} |`;
const table = [
  `# Protocol decode: generated vs compiled vs interpreted (Fetch response v${VERSION}, ${PARTITIONS} partitions)`,
  '',
  `Node ${process.version}; load average ${loadavg()[0].toFixed(1)} at start on ${cpus().length} cores (shared, loaded);` +
    ` median of ${rounds} alternating rounds of 300 ms of CPU time; ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| decoder | responses/s | partitions/s |',
  '| --- | ---: | ---: |',
  ...decoders.map((d, n) => row(d.label, rates[n])),
  '',
  `Compiling the Fetch v${VERSION} response decoder at run time took ${compileMs.toFixed(1)} ms; the generated one costs nothing at run time.`,
  '',
].join('\n');
writeFileSync(new URL('./results/protocol-decode.md', import.meta.url), table);
console.log(table);
