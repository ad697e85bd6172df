import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { ProtocolError } from '../../codecs/errors.js';
import { Reader } from '../../codecs/reader.js';
import { Writer } from '../../codecs/writer.js';
import { compiledCodec } from '../../protocol/compile.js';
import type { MessageDef } from '../../protocol/schema.js';
import { diffMessage, show } from './compare.js';
import { defaultMessage, randomMessage } from './generate.js';
import { fromKafkaJson, toKafkaJson } from './json.js';
import type { Mismatch } from './mismatch.js';
import type { Oracle } from './oracle.js';
import { Rng, seedFor } from './random.js';

/**
 * Checks tidemark's compiled codec of one message version against Kafka's
 * generated serializer: for the all-defaults message and `messages` random
 * ones, tidemark's bytes must equal Kafka's, and tidemark must read Kafka's
 * bytes back to the same message. A version yields at most one encode and
 * one decode mismatch (the first failing message, with how many failed), so
 * one wrong field reads as one finding.
 */

export interface BytesOptions {
  seed: number;
  messages: number;
  /** Where the first failing message of each check is written, for reproduction. */
  dumpDir?: string;
}

interface Case {
  index: number;
  value: Record<string, unknown>;
}

/** What went wrong: `what` and `path` are the same in every version with the fault (so they fold); `detail` is this case. */
interface Finding {
  what: string;
  path: string;
  detail: string;
}

interface Outcome {
  encode?: Finding;
  decode?: Finding;
  tidemark?: Buffer;
  kafka?: Buffer;
}

/** A path without element indices, so `topics[3].name` and `topics[0].name` are one finding. */
const fieldOf = (path: string | undefined) => (path ?? '').replace(/\[\d+\]/g, '[]');
const firstPath = (diffs: string[]) => fieldOf(diffs[0]?.split(':')[0]);

/** An error as a finding: tidemark's ProtocolError names its field; the location goes to the detail. */
function failure(what: string, e: unknown, path = ''): Finding {
  if (e instanceof ProtocolError) return { what, path: fieldOf(e.field ?? path), detail: e.message };
  return { what, path, detail: e instanceof Error ? e.message : String(e) };
}

function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

async function explainEncode(
  def: MessageDef,
  version: number,
  c: Case,
  ours: Buffer,
  theirs: Buffer,
  oracle: Oracle,
): Promise<Finding> {
  const at = firstDifference(ours, theirs);
  const where = `from byte ${at}: tidemark ${show(ours.subarray(at))} of ${ours.length}, Kafka ${show(theirs.subarray(at))} of ${theirs.length}`;
  try {
    // Kafka's reading of tidemark's bytes usually names the field that went wrong.
    const json = (await oracle.decode(def.name, version, ours)) as Record<string, unknown>;
    const diffs = diffMessage(def.fields, c.value, fromKafkaJson(def.fields, json, version), version);
    const what =
      diffs.length === 0
        ? 'encode: bytes differ'
        : "encode: bytes differ; Kafka reads tidemark's bytes as another value";
    return { what, path: firstPath(diffs), detail: [where, ...diffs].join('; ') };
  } catch (e) {
    return {
      what: "encode: bytes differ; Kafka cannot read tidemark's bytes",
      path: '',
      detail: `${where}; ${String(e)}`,
    };
  }
}

async function checkCase(def: MessageDef, version: number, c: Case, oracle: Oracle): Promise<Outcome> {
  const out: Outcome = {};
  // Compiled from the definition under check (which may be a deliberately altered copy); the
  // generated codecs equal the compiled ones (test/unit/protocol/generated.test.ts).
  const codec = compiledCodec(def, version);
  let tidemarkError: unknown;
  try {
    const w = new Writer();
    codec.encode(w, c.value as Parameters<typeof codec.encode>[1]);
    out.tidemark = w.toBuffer();
  } catch (e) {
    tidemarkError = e ?? 'error';
  }
  try {
    out.kafka = await oracle.encode(def.name, version, c.value, def.fields);
  } catch (e) {
    out.encode = failure('encode: Kafka cannot encode the message', e);
    if (tidemarkError !== undefined) out.encode.detail += `; tidemark cannot either: ${String(tidemarkError)}`;
    return out;
  }
  if (out.tidemark === undefined) out.encode = failure('encode: tidemark cannot encode the message', tidemarkError);
  else if (!out.tidemark.equals(out.kafka))
    out.encode = await explainEncode(def, version, c, out.tidemark, out.kafka, oracle);
  try {
    const r = new Reader(out.kafka);
    const back = codec.decode(r);
    const diffs = diffMessage(def.fields, c.value, back, version);
    if (r.offset !== out.kafka.length) {
      const detail = `read ${r.offset} of ${out.kafka.length} bytes`;
      out.decode = { what: "decode: tidemark stops before the end of Kafka's bytes", path: '', detail };
    } else if (diffs.length > 0) {
      out.decode = {
        what: "decode: tidemark reads Kafka's bytes as another value",
        path: firstPath(diffs),
        detail: diffs.join('; '),
      };
    }
  } catch (e) {
    out.decode = failure("decode: tidemark cannot read Kafka's bytes", e);
  }
  return out;
}

async function dump(dir: string, name: string, def: MessageDef, c: Case, o: Outcome, seed: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const body = {
    seed,
    index: c.index,
    message: JSON.parse(toKafkaJson(c.value, def.fields)),
    tidemark: o.tidemark?.toString('hex'),
    kafka: o.kafka?.toString('hex'),
    encode: o.encode === undefined ? undefined : `${o.encode.what}: ${o.encode.detail}`,
    decode: o.decode === undefined ? undefined : `${o.decode.what}: ${o.decode.detail}`,
  };
  await writeFile(path.join(dir, `${name}.json`), `${JSON.stringify(body, null, 2)}\n`);
}

/** The messages checked for one version: #0 has every field at its default, the rest are random. */
export function casesFor(def: MessageDef, version: number, opts: Pick<BytesOptions, 'seed' | 'messages'>): Case[] {
  const cases: Case[] = [{ index: 0, value: defaultMessage(def, version) }];
  for (let i = 1; i <= opts.messages; i++) {
    cases.push({ index: i, value: randomMessage(def, version, new Rng(seedFor(opts.seed, def.name, version, i))) });
  }
  return cases;
}

export async function checkBytesVersion(
  api: string,
  def: MessageDef,
  version: number,
  oracle: Oracle,
  opts: BytesOptions,
): Promise<Mismatch[]> {
  const cases = casesFor(def, version, opts);
  const outcomes = await Promise.all(cases.map((c) => checkCase(def, version, c, oracle)));
  const out: Mismatch[] = [];
  for (const kind of ['encode', 'decode'] as const) {
    const failed = outcomes.map((o, i) => [o, cases[i]] as const).filter(([o]) => o[kind] !== undefined);
    if (failed.length === 0) continue;
    const [o, c] = failed[0];
    const found = o[kind]!;
    out.push({
      kind: 'bytes',
      api,
      message: def.name,
      version,
      kafka: oracle.kafkaVersion,
      path: found.path,
      what: found.what,
      detail: `${found.detail} [message #${c.index} of seed ${opts.seed}; ${failed.length} of ${cases.length} messages fail]`,
    });
    if (opts.dumpDir !== undefined) {
      await dump(opts.dumpDir, `${oracle.kafkaVersion}-${def.name}-v${version}-${kind}`, def, c, o, opts.seed);
    }
  }
  return out;
}
