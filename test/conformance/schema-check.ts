import type { Field, FieldType, MessageDef } from '../../protocol/schema.js';
import { inRange, parseRange, type Range } from '../../protocol/versions.js';
import { type KafkaField, type KafkaMessage, stableVersions } from './kafka-schema.js';
import { compactVersions, type Mismatch } from './mismatch.js';

/**
 * Compares one tidemark message definition with Kafka's schema of the same
 * message, version by version: for each claimed version, every field that
 * either side has in that version must agree in name, type, nullability,
 * tagging, default, ignorability, encoding (flexible or not) and order.
 */

const PRIMITIVES = new Set([
  'bool',
  'int8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'float64',
  'string',
  'bytes',
  'records',
  'uuid',
]);
const INTEGERS = new Set(['int8', 'int16', 'uint16', 'int32', 'uint32', 'int64']);
const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** Kafka's rule (MessageGenerator.lowerCaseFirst): the schema name with its first letter lower-cased. */
export function tidemarkName(kafkaName: string): string {
  return kafkaName.charAt(0).toLowerCase() + kafkaName.slice(1);
}

function typeText(t: FieldType): string {
  if (typeof t === 'string') return t;
  return t.kind === 'array' ? `[]${typeText(t.of)}` : t.name;
}

/** A field's default in one canonical text per type, so `-1`, `-1n`, `"-1"` and `0xffffffff` can be compared. */
function canonicalDefault(type: string, value: string | number | bigint | boolean | null | undefined): string {
  const base = type.startsWith('[]') ? 'array' : PRIMITIVES.has(type) ? type : 'struct';
  if (value === null || value === 'null') return 'null';
  if (INTEGERS.has(base)) {
    if (value === undefined || value === '') return '0';
    try {
      const s = String(value);
      // Kafka's generator reads "0x..." as hex and anything else as decimal.
      return (s.startsWith('0x') ? BigInt(s) : BigInt(s.replace(/n$/, ''))).toString();
    } catch {
      return `invalid ${JSON.stringify(String(value))}`;
    }
  }
  switch (base) {
    case 'bool':
      return String(value === true || String(value).toLowerCase() === 'true');
    case 'float64':
      return String(Number(value ?? 0));
    case 'string':
      return JSON.stringify(String(value ?? ''));
    case 'uuid':
      return value === undefined || value === '' ? ZERO_UUID : String(value);
    case 'records':
      // Kafka: "Records fields default to null". tidemark leaves the default out and writes a missing
      // records value as null; the decode-side default never shows, since no version lacks a records field.
      return 'null';
    case 'bytes':
    case 'array':
      return value === undefined || value === '' ? 'empty' : `invalid ${JSON.stringify(String(value))}`;
    default:
      return value === undefined || value === ''
        ? 'defaults of its fields'
        : `invalid ${JSON.stringify(String(value))}`;
  }
}

class Checker {
  readonly out: Mismatch[] = [];

  constructor(
    private readonly base: Omit<Mismatch, 'version' | 'path' | 'what'>,
    private readonly kafka: KafkaMessage,
    private readonly version: number,
    private readonly claimed: Range,
  ) {}

  /** The claimed versions that lack the field (by either side's versions). */
  absentIn(k: KafkaField, t: Field, parents: readonly string[]): number[] {
    const out: number[] = [];
    for (let v = this.claimed.min; v <= this.claimed.max; v++) {
      // Only versions that have the enclosing structures count: in the others the field cannot be set.
      if (!parents.every((p) => inRange(p, v))) continue;
      if (!inRange(k.versions, v) || !inRange(t.versions, v)) out.push(v);
    }
    return out;
  }

  report(path: string, what: string): void {
    this.out.push({ ...this.base, version: this.version, path, what });
  }

  /** Struct fields of a Kafka struct-typed field: inline, or from commonStructs. */
  structFields(f: KafkaField): KafkaField[] | undefined {
    if (f.fields !== undefined && f.fields.length > 0) return f.fields;
    const name = f.type.replace(/^\[\]/, '');
    return this.kafka.commonStructs?.find((s) => s.name === name)?.fields;
  }

  fields(
    kafka: readonly KafkaField[],
    ours: readonly Field[],
    flexible: boolean,
    prefix: string,
    parents: readonly string[] = [],
  ): void {
    const v = this.version;
    const theirs = kafka.filter((f) => inRange(f.versions, v));
    const mine = ours.filter((f) => inRange(f.versions, v));
    // Matched by Kafka's naming rule; a name that differs only in case is matched too and reported.
    const byName = new Map(mine.map((f) => [f.name.toLowerCase(), f]));
    const matched = new Set<Field>();
    for (const k of theirs) {
      const name = tidemarkName(k.name);
      const t = byName.get(name.toLowerCase());
      if (t === undefined) {
        const other = ours.find((f) => f.name === name);
        this.report(
          prefix + name,
          other === undefined
            ? `missing: Kafka has ${k.name} (${k.type}, versions ${k.versions})`
            : `not present in this version: Kafka has it in versions ${k.versions}, tidemark in ${other.versions}`,
        );
        continue;
      }
      matched.add(t);
      if (t.name !== name) this.report(prefix + t.name, `name: Kafka ${k.name}, so tidemark ${name}`);
      this.field(k, t, flexible, prefix + name, parents);
    }
    for (const t of mine) {
      if (matched.has(t)) continue;
      const other = kafka.find((k) => tidemarkName(k.name) === t.name);
      this.report(
        prefix + t.name,
        other === undefined
          ? `not in Kafka's schema (tidemark versions ${t.versions})`
          : `present in this version: tidemark has it in versions ${t.versions}, Kafka in ${other.versions}`,
      );
    }
    // Order decides the wire layout of regular fields; compare the fields both sides have.
    const kafkaOrder = theirs.map((f) => tidemarkName(f.name)).filter((n) => byName.has(n.toLowerCase()));
    const ourOrder = mine.filter((f) => matched.has(f)).map((f) => f.name);
    if (kafkaOrder.join().toLowerCase() !== ourOrder.join().toLowerCase()) {
      this.report(
        prefix.replace(/\.$/, ''),
        `field order: Kafka ${kafkaOrder.join(', ')}; tidemark ${ourOrder.join(', ')}`,
      );
    }
  }

  field(k: KafkaField, t: Field, flexible: boolean, path: string, parents: readonly string[]): void {
    const v = this.version;
    const ours = typeText(t.type);
    if (ours !== k.type) {
      this.report(path, `type: Kafka ${k.type}, tidemark ${ours}`);
      return; // nothing below means much with the wrong type
    }
    const kNullable = inRange(k.nullableVersions, v);
    if (kNullable !== inRange(t.nullable, v)) {
      this.report(
        path,
        `nullable: Kafka ${kNullable ? 'yes' : 'no'} (nullableVersions ${k.nullableVersions ?? 'none'}), tidemark ${t.nullable ?? 'none'}`,
      );
    }
    const kTagged = k.tag !== undefined && inRange(k.taggedVersions, v);
    const tTagged = t.tag !== undefined && inRange(t.taggedVersions ?? t.versions, v);
    if (kTagged !== tTagged) {
      this.report(
        path,
        `tagged: Kafka ${kTagged ? `tag ${k.tag} (taggedVersions ${k.taggedVersions})` : 'not tagged'}, tidemark ${tTagged ? `tag ${t.tag}` : 'not tagged'}`,
      );
    } else if (kTagged && k.tag !== t.tag) {
      this.report(path, `tag: Kafka ${k.tag}, tidemark ${t.tag}`);
    }
    const kDefault = canonicalDefault(k.type, k.default);
    const tDefault = canonicalDefault(k.type, t.default);
    if (kDefault !== tDefault) this.report(path, `default: Kafka ${kDefault}, tidemark ${tDefault}`);
    // Ignorable only acts in versions without the field; where every claimed version has it,
    // the flag cannot show (Kafka 3.9 and 4.x even disagree on it for RequestHeader.ClientId).
    const absent = !!k.ignorable !== !!t.ignorable ? this.absentIn(k, t, parents) : [];
    if (absent.length > 0) {
      const where = `it decides what a set value does in v${compactVersions(absent)}, which lack the field`;
      this.report(path, `ignorable: Kafka ${!!k.ignorable}, tidemark ${!!t.ignorable} (${where})`);
    }
    // The field's effective encoding in this version, with any per-field override applied.
    const kFlex = flexible && (k.flexibleVersions === undefined || inRange(k.flexibleVersions, v));
    const tFlex = flexible && (t.flexibleVersions === undefined || inRange(t.flexibleVersions, v));
    if (kFlex !== tFlex) {
      this.report(
        path,
        `flexible encoding: Kafka ${kFlex} (flexibleVersions ${k.flexibleVersions ?? 'of the message'}), tidemark ${tFlex}`,
      );
    }
    const inner = typeof t.type === 'object' ? (t.type.kind === 'array' ? t.type.of : t.type) : undefined;
    if (inner !== undefined && typeof inner === 'object' && inner.kind === 'struct') {
      const kFields = this.structFields(k);
      if (kFields === undefined) this.report(path, `Kafka's struct ${inner.name} has no fields in the schema`);
      else this.fields(kFields, inner.fields, flexible, `${path}.`, [...parents, k.versions]);
    }
  }
}

function intersect(a: Range, b: Range): Range {
  return { min: Math.max(a.min, b.min), max: Math.min(a.max, b.max) };
}

/** Mismatches of `def` at `version` against `kafka` (a schema of Kafka release `kafkaVersion`). */
export function checkSchemaVersion(
  api: string,
  def: MessageDef,
  kafka: KafkaMessage,
  kafkaVersion: string,
  version: number,
): Mismatch[] {
  const c = new Checker(
    { kind: 'schema', api, message: def.name, kafka: kafkaVersion },
    kafka,
    version,
    // The versions where ignorable can show: claimed by tidemark and served by this release.
    intersect(parseRange(def.validVersions), stableVersions(kafka)),
  );
  const kFlexible = inRange(kafka.flexibleVersions, version);
  const tFlexible = inRange(def.flexibleVersions, version);
  if (kFlexible !== tFlexible) {
    c.report(
      '',
      `flexible: Kafka ${kFlexible} (flexibleVersions ${kafka.flexibleVersions}), tidemark ${tFlexible} (${def.flexibleVersions})`,
    );
  }
  c.fields(kafka.fields, def.fields, kFlexible, '');
  return c.out;
}
