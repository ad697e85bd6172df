import type { Field, FieldType, MessageDef } from '../../protocol/schema.js';
import { inRange } from '../../protocol/versions.js';
import type { Rng } from './random.js';

/**
 * Messages generated from a tidemark definition, for one version: every
 * field of the version has a value that is legal there (null only where the
 * field is nullable; fields of other versions left out, so a non-ignorable
 * field never carries a value its version cannot hold). Random messages
 * reach the edges: extreme integers, empty and long arrays, non-ASCII and
 * empty strings, bytes of many lengths, tagged fields both at their default
 * (not written) and set.
 *
 * `records` fields get arbitrary bytes: Kafka's JSON converter wraps them
 * in MemoryRecords.readableRecords() and its serializer copies them as they
 * are, validating nothing, so arbitrary bytes test the framing exactly.
 */

const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';
const STRINGS = ['', 'ü日本🙂', 'tidemark', 'a', 'topic-0', '\u0000\u007f', 'é'.repeat(40)];
const INT_RANGE: Record<string, [number, number]> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
};
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const FLOATS = [0, -0, 1.5, -2.25e-300, Number.MAX_VALUE, Number.MIN_VALUE, -1, 0.1];

/** Largest array a random message holds; nested arrays share a budget of values. */
const MAX_ARRAY = 50;
const VALUE_BUDGET = 1500;

function isTagged(f: Field, version: number): boolean {
  return f.tag !== undefined && inRange(f.taggedVersions ?? f.versions, version);
}

/** A field's default as a value, the way tidemark's decoder produces it. */
export function defaultValue(f: Field, version: number): unknown {
  if (f.default === null) return null;
  const t = f.type;
  if (typeof t === 'object') {
    return t.kind === 'array' ? [] : defaultStruct(t.fields, version);
  }
  const d = f.default;
  switch (t) {
    case 'int64':
      return BigInt(d ?? 0);
    case 'bool':
      return d === true || d === 'true';
    case 'string':
      return d ?? '';
    case 'uuid':
      return d ?? ZERO_UUID;
    case 'bytes':
      return Buffer.alloc(0);
    case 'records':
      // Kafka's records default is null; a non-nullable one must carry bytes.
      return inRange(f.nullable, version) ? null : Buffer.alloc(0);
    default:
      return Number(d ?? 0);
  }
}

function defaultStruct(fields: readonly Field[], version: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (inRange(f.versions, version)) out[f.name] = defaultValue(f, version);
  return out;
}

class Generator {
  private budget = VALUE_BUDGET;

  constructor(
    private readonly rng: Rng,
    private readonly version: number,
  ) {}

  struct(fields: readonly Field[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      if (!inRange(f.versions, this.version)) continue;
      // A tagged field at its default is left out of the bytes: test both cases.
      if (isTagged(f, this.version) && this.rng.chance(0.4)) out[f.name] = defaultValue(f, this.version);
      else if (inRange(f.nullable, this.version) && this.rng.chance(0.15)) out[f.name] = null;
      else out[f.name] = this.value(f.type);
    }
    return out;
  }

  private arrayLength(): number {
    if (this.budget <= 0) return 0;
    const r = this.rng.float();
    const n = r < 0.2 ? 0 : r < 0.45 ? 1 : r < 0.85 ? this.rng.between(2, 5) : this.rng.between(6, MAX_ARRAY);
    return Math.min(n, this.budget);
  }

  value(t: FieldType): unknown {
    this.budget--;
    const rng = this.rng;
    if (typeof t === 'object') {
      if (t.kind === 'struct') return this.struct(t.fields);
      return Array.from({ length: this.arrayLength() }, () => this.value(t.of));
    }
    switch (t) {
      case 'bool':
        return rng.chance(0.5);
      case 'int64': {
        const r = rng.float();
        if (r < 0.25) return rng.pick([INT64_MIN, INT64_MAX, INT64_MIN + 1n, INT64_MAX - 1n]);
        if (r < 0.4) return rng.pick([0n, -1n, 1n]);
        if (r < 0.6) return BigInt(rng.between(-1000000, 1000000));
        return BigInt.asIntN(64, (BigInt(rng.next()) << 32n) | BigInt(rng.next()));
      }
      case 'float64':
        return rng.chance(0.5) ? rng.pick(FLOATS) : (rng.float() - 0.5) * 2 ** rng.between(0, 80);
      case 'string':
        return this.string();
      case 'uuid':
        return rng.chance(0.1) ? ZERO_UUID : rng.bytes(16).toString('base64url');
      case 'bytes':
      case 'records':
        return rng.bytes(rng.pick([0, 1, 2, rng.between(3, 64), rng.between(65, 600)]));
      default: {
        const [min, max] = INT_RANGE[t];
        const r = rng.float();
        if (r < 0.25) return rng.pick([min, max]);
        if (r < 0.4) return rng.pick(min < 0 ? [0, -1, 1] : [0, 1]);
        return min + Math.floor(rng.float() * (max - min + 1));
      }
    }
  }

  private string(): string {
    const rng = this.rng;
    if (rng.chance(0.5)) return rng.pick(STRINGS);
    const alphabet = 'abcxyzABC019-_.ü日本🙂';
    const chars = [...alphabet];
    const n = rng.pick([rng.between(1, 16), rng.between(17, 300)]);
    let s = '';
    for (let i = 0; i < n; i++) s += rng.pick(chars);
    return s;
  }
}

/** A random message of `def` at `version`. */
export function randomMessage(def: MessageDef, version: number, rng: Rng): Record<string, unknown> {
  return new Generator(rng, version).struct(def.fields);
}

/** The message with every field of the version at its default. */
export function defaultMessage(def: MessageDef, version: number): Record<string, unknown> {
  return defaultStruct(def.fields, version);
}
