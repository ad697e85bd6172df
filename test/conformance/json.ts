import type { Field, FieldType } from '../../protocol/schema.js';
import { inRange } from '../../protocol/versions.js';
import { defaultValue } from './generate.js';

/**
 * The bridge between tidemark values and the JSON of Kafka's generated
 * `*JsonConverter` classes. Field names are the same on both sides (Kafka's
 * JSON uses the camel-case names tidemark uses). Types differ:
 *
 * | tidemark          | Kafka JSON                                               |
 * |-------------------|----------------------------------------------------------|
 * | int64 (bigint)    | number, written exactly; read back as a decimal string   |
 * | uint32 (number)   | number; read back as a decimal string (a Java long)      |
 * | bytes, records    | base64 text (standard alphabet, padded)                  |
 * | uuid              | the same base64url text (`Uuid.toString()`)              |
 * | float64           | number with a fraction (`1.0`; `-0.0` keeps the sign)   |
 *
 * The oracle's Java side turns Java longs into strings on the way out
 * because JSON.parse cannot read 64-bit integers exactly on Node 20.
 * `_unknownTaggedFields` has no JSON form in Kafka and is left out.
 */

/** A float64 as JSON that Jackson reads as a floating-point node (Kafka refuses `1` for a float64). */
function floatText(x: number): string {
  if (Object.is(x, -0)) return '-0.0';
  const s = JSON.stringify(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

/**
 * JSON text for a tidemark value: bigints as exact numbers, bytes as base64,
 * float64 fields (known from `fields`) always with a fraction or exponent.
 */
export function toKafkaJson(value: unknown, fields?: readonly Field[]): string {
  return write(value, undefined, fields);
}

function write(value: unknown, type: FieldType | undefined, fields?: readonly Field[]): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as JSON`);
      return type === 'float64' ? floatText(value) : JSON.stringify(value);
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
  }
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (Array.isArray(value)) {
    const of = typeof type === 'object' && type.kind === 'array' ? type.of : undefined;
    return `[${value.map((v) => write(v, of)).join(',')}]`;
  }
  const members = fields ?? (typeof type === 'object' && type.kind === 'struct' ? type.fields : undefined);
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined || k === '_unknownTaggedFields') continue;
    parts.push(`${JSON.stringify(k)}:${write(v, members?.find((f) => f.name === k)?.type)}`);
  }
  return `{${parts.join(',')}}`;
}

function fromJsonValue(t: FieldType, x: unknown, version: number, path: string): unknown {
  if (x === null) return null;
  if (typeof t === 'object') {
    if (t.kind === 'array') {
      if (!Array.isArray(x)) throw new Error(`${path}: expected an array in Kafka's JSON`);
      return x.map((e, i) => fromJsonValue(t.of, e, version, `${path}[${i}]`));
    }
    return fromKafkaJson(t.fields, x as Record<string, unknown>, version, `${path}.`);
  }
  switch (t) {
    case 'int64':
      return BigInt(x as string | number);
    case 'bytes':
    case 'records':
      return Buffer.from(x as string, 'base64');
    case 'string':
    case 'uuid':
    case 'bool':
      return x;
    default:
      return Number(x); // uint32 arrives as a string
  }
}

/**
 * A tidemark value from Kafka's JSON, read through a tidemark definition:
 * fields of the version only, each converted by its tidemark type; a field
 * the JSON lacks (a tagged field at its default) takes tidemark's default.
 */
export function fromKafkaJson(
  fields: readonly Field[],
  json: Record<string, unknown>,
  version: number,
  path = '',
): Record<string, unknown> {
  if (json === null || typeof json !== 'object') throw new Error(`${path || 'message'}: expected an object`);
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!inRange(f.versions, version)) continue;
    // Kafka's converter leaves out tagged fields at their default: read those as the default.
    out[f.name] =
      f.name in json ? fromJsonValue(f.type, json[f.name], version, path + f.name) : defaultValue(f, version);
  }
  return out;
}
