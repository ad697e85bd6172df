import type { ArrayType, Field, FieldType, MessageDef, StructType } from '../../../protocol/schema.js';
import { inRange } from '../../../protocol/versions.js';
import type { Rng } from '../../conformance/random.js';
import { text } from './random.js';

/**
 * Rng but valid values of a message at one version, derived from its
 * definition alone, so that every API and version gets encodings with
 * non-empty arrays, nulls, long strings, tagged fields and unknown tags to
 * truncate and mutate, not only the all-defaults message.
 */

const MAX_DEPTH = 4;

function isStruct(t: FieldType): t is StructType {
  return typeof t === 'object' && t.kind === 'struct';
}

function isArray(t: FieldType): t is ArrayType {
  return typeof t === 'object' && t.kind === 'array';
}

function primitive(t: string, rand: Rng): unknown {
  switch (t) {
    case 'int8':
      return rand.between(-128, 127);
    case 'int16':
      return rand.between(-32768, 32767);
    case 'uint16':
      return rand.between(0, 65535);
    case 'int32':
      return rand.chance(0.3) ? rand.pick([-1, 0, 0x7fffffff, -0x80000000]) : rand.between(-1000, 100000);
    case 'uint32':
      return rand.chance(0.3) ? 0xffffffff : rand.between(0, 100000);
    case 'int64':
      return rand.chance(0.3)
        ? rand.pick([-1n, 0n, 0x7fffffffffffffffn, -0x8000000000000000n])
        : BigInt(rand.between(-1000, 1_000_000)) * 4096n;
    case 'float64':
      return rand.pick([0, 1.5, -2.25, 1e300]);
    case 'bool':
      return rand.chance(0.5);
    case 'string':
      return text(rand, rand.chance(0.1) ? 300 : 12);
    case 'bytes':
    case 'records':
      return rand.bytes(rand.between(0, rand.chance(0.1) ? 200 : 8));
    case 'uuid':
      return rand.bytes(16).toString('base64url');
  }
  throw new Error(`no generator for type ${t}`);
}

function randomValue(t: FieldType, version: number, rand: Rng, depth: number): unknown {
  if (isStruct(t)) return structValue(t.fields, version, false, rand, depth + 1);
  if (isArray(t)) {
    const n = depth >= MAX_DEPTH ? 0 : rand.between(0, 3);
    return Array.from({ length: n }, () => randomValue(t.of, version, rand, depth + 1));
  }
  return primitive(t, rand);
}

/**
 * A value for the fields that exist in `version`; fields of other versions
 * are left out (they take their defaults). In flexible versions some
 * structures carry unknown tagged fields, which must survive a round trip.
 */
export function structValue(
  fields: readonly Field[],
  version: number,
  flexible: boolean,
  rand: Rng,
  depth = 0,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!inRange(f.versions, version)) continue;
    if (rand.chance(0.15)) continue; // left out: takes its default
    out[f.name] = inRange(f.nullable, version) && rand.chance(0.2) ? null : randomValue(f.type, version, rand, depth);
  }
  if (flexible && rand.chance(0.15)) {
    // Tags far above any Kafka defines, so they are unknown to every definition.
    out._unknownTaggedFields = [{ tag: 10_000 + rand.between(0, 50), data: rand.bytes(rand.between(0, 6)) }];
  }
  return out;
}

/** A random valid value of `def` at `version`. */
export function messageValue(def: MessageDef, version: number, rand: Rng): Record<string, unknown> {
  return structValue(def.fields, version, inRange(def.flexibleVersions, version), rand);
}
