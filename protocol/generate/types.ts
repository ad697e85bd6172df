import type { Field, FieldType, MessageDef, StructType } from '../schema.js';
import { isArray, isStruct } from './layout.js';

/**
 * Writes a message's value types as TypeScript interfaces, one per structure,
 * with each field's `doc` as JSDoc so that an editor shows it on hover. They
 * are the same types schema.ts infers from the definition (every field of
 * every version, null where the field is nullable), only named and
 * documented; protocol/schema.ts's `RequestOf`/`ResponseOf` resolve to them.
 */

const PRIMITIVE_TS: Record<string, string> = {
  int8: 'number',
  int16: 'number',
  uint16: 'number',
  int32: 'number',
  uint32: 'number',
  float64: 'number',
  int64: 'bigint',
  bool: 'boolean',
  string: 'string',
  uuid: 'string',
  bytes: 'Buffer',
  records: 'Buffer',
};

/** The interfaces of one message and its nested structures, in order of first appearance. */
export function emitTypes(def: MessageDef): string[] {
  const names = new Map<StructType, string>();
  const used = new Set<string>();
  const out: string[] = [];

  const nameOf = (t: StructType): string => {
    let name = names.get(t);
    if (name === undefined) {
      const base = `${def.name}${t.name.replace(/[^A-Za-z0-9_$]/g, '_')}`;
      name = base;
      for (let i = 2; used.has(name); i++) name = `${base}${i}`;
      used.add(name);
      names.set(t, name);
      emitInterface(name, `One ${t.name} of ${def.name}.`, t.fields);
    }
    return name;
  };

  const typeOf = (t: FieldType): string => {
    if (isStruct(t)) return nameOf(t);
    if (isArray(t)) return `${typeOf(t.of)}[]`;
    return PRIMITIVE_TS[t] ?? 'never';
  };

  function emitInterface(name: string, summary: string, fields: readonly Field[]): void {
    const lines = [`/** ${summary} */`, `export interface ${name} {`];
    for (const f of fields) {
      const t = typeOf(f.type);
      lines.push(...jsdoc(f), `  ${f.name}: ${t}${f.nullable === undefined ? '' : ' | null'};`);
    }
    lines.push('  _unknownTaggedFields?: UnknownTaggedField[];', '}');
    out.push(lines.join('\n'));
  }

  used.add(def.name);
  emitInterface(def.name, `${def.name}, every version: a field not in a version holds its default.`, def.fields);
  // The root was pushed last (nested structures first); put it first.
  const root = out.pop() as string;
  return [root, ...out];
}

/** The JSDoc of a field: its description, then the versions it exists in and how it is sent. */
function jsdoc(f: Field): string[] {
  const facts = [`Versions ${f.versions}`];
  if (f.nullable !== undefined) facts.push(`nullable in ${f.nullable}`);
  if (f.tag !== undefined) facts.push(`tag ${f.tag}${f.taggedVersions === undefined ? '' : ` in ${f.taggedVersions}`}`);
  if (f.default !== undefined) facts.push(`default ${String(f.default)}`);
  const body =
    f.doc === undefined ? [`${facts.join('; ')}.`] : [f.doc.replace(/\*\//g, '*\\/'), '', `${facts.join('; ')}.`];
  return ['  /**', ...body.map((l) => (l === '' ? '   *' : `   * ${l}`)), '   */'];
}
