import { ProtocolError } from '../../codecs/errors.js';
import type { ArrayType, Field, FieldType, StructType } from '../schema.js';
import { inRange } from '../versions.js';

/**
 * What the code emitter (emit.ts) and the type writer (types.ts) need to know
 * about a definition at one version: which fields are on the wire, which are
 * tagged, and how small an element can be.
 */

/** Fields that are serialised in a version, split into the regular and the tagged ones. */
interface Layout {
  regular: Field[];
  tagged: Field[];
  absent: Field[];
}

export function layout(fields: readonly Field[], version: number, flexible: boolean): Layout {
  const out: Layout = { regular: [], tagged: [], absent: [] };
  for (const f of fields) {
    if (!inRange(f.versions, version)) out.absent.push(f);
    else if (f.tag !== undefined && inRange(f.taggedVersions ?? f.versions, version)) {
      if (!flexible) throw new ProtocolError(`tagged field ${f.name} in a non-flexible version ${version}`);
      out.tagged.push(f);
    } else out.regular.push(f);
  }
  return out;
}

export function isStruct(t: FieldType): t is StructType {
  return typeof t === 'object' && t.kind === 'struct';
}

export function isArray(t: FieldType): t is ArrayType {
  return typeof t === 'object' && t.kind === 'array';
}

const FIXED_SIZE: Partial<Record<string, number>> = {
  int8: 1,
  bool: 1,
  int16: 2,
  uint16: 2,
  int32: 4,
  uint32: 4,
  int64: 8,
  float64: 8,
  uuid: 16,
};

/** The fewest bytes one element of a type can occupy, to bound array counts. */
export function minSize(t: FieldType, version: number, flexible: boolean): number {
  if (typeof t === 'string') return FIXED_SIZE[t] ?? 1;
  if (isArray(t)) return 1;
  const l = layout(t.fields, version, flexible);
  let n = flexible ? 1 : 0;
  for (const f of l.regular) n += minSize(f.type, version, flexible);
  return n;
}

/** A JavaScript identifier made from a schema name. */
export function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_$]/g, '_');
}
