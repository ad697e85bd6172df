import type { Field, FieldType } from '../../protocol/schema.js';
import { inRange } from '../../protocol/versions.js';

/**
 * Where two values of a message differ, judged by the definition: fields
 * of the version only (a field the version lacks takes a default on both
 * sides and is the schema check's business), bytes by content, numbers with
 * -0 kept apart from 0 (they are different float64 bytes).
 */

const MAX_DIFFS = 3;

export function show(x: unknown): string {
  if (x === undefined) return 'undefined';
  if (typeof x === 'bigint') return `${x}n`;
  if (Buffer.isBuffer(x) || x instanceof Uint8Array) {
    const hex = Buffer.from(x).toString('hex');
    return `<${x.length} bytes ${hex.length > 32 ? `${hex.slice(0, 32)}…` : hex}>`;
  }
  if (Object.is(x, -0)) return '-0';
  const s = JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return s === undefined ? String(x) : s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

function diffValue(t: FieldType, a: unknown, b: unknown, version: number, path: string, out: string[]): void {
  if (out.length >= MAX_DIFFS) return;
  if (a === null || b === null || a === undefined || b === undefined) {
    if (a !== b) out.push(`${path}: expected ${show(a)}, got ${show(b)}`);
    return;
  }
  if (typeof t === 'object') {
    if (t.kind === 'struct') {
      diffFields(t.fields, a as Record<string, unknown>, b as Record<string, unknown>, version, `${path}.`, out);
      return;
    }
    if (!Array.isArray(a) || !Array.isArray(b)) {
      out.push(`${path}: expected ${show(a)}, got ${show(b)}`);
      return;
    }
    if (a.length !== b.length) {
      out.push(`${path}: expected ${a.length} elements, got ${b.length}`);
      return;
    }
    for (let i = 0; i < a.length; i++) diffValue(t.of, a[i], b[i], version, `${path}[${i}]`, out);
    return;
  }
  if (t === 'bytes' || t === 'records') {
    const x = Buffer.from(a as Uint8Array);
    if (!(b instanceof Uint8Array) || !x.equals(b)) out.push(`${path}: expected ${show(a)}, got ${show(b)}`);
    return;
  }
  if (!Object.is(a, b)) out.push(`${path}: expected ${show(a)}, got ${show(b)}`);
}

function diffFields(
  fields: readonly Field[],
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  version: number,
  prefix: string,
  out: string[],
): void {
  for (const f of fields) {
    if (!inRange(f.versions, version)) continue;
    diffValue(f.type, a[f.name], b[f.name], version, prefix + f.name, out);
  }
}

/** Up to three differences between `expected` and `actual`, each as `path: expected X, got Y`. */
export function diffMessage(
  fields: readonly Field[],
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  version: number,
): string[] {
  const out: string[] = [];
  diffFields(fields, expected, actual, version, '', out);
  return out;
}
