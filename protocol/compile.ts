import { ProtocolError } from '../codecs/errors.js';
import { Reader } from '../codecs/reader.js';
import type { Writer } from '../codecs/writer.js';
import type { ArrayType, Field, FieldType, MessageDef, StructType } from './schema.js';
import { inRange } from './versions.js';

/**
 * Compiles a message definition, for one version, into straight-line
 * JavaScript (via `new Function`): no per-field dispatch or closures at run
 * time, which is what the fetch hot path needs. Each compiled function is
 * specialised to exactly the fields, encodings and defaults of its version.
 */

export type DecodeFn = (r: Reader) => Record<string, unknown>;
export type EncodeFn = (w: Writer, value: Record<string, unknown>) => void;

const EMPTY = Buffer.alloc(0);

/** Fields that are serialised in a version, split into the regular and the tagged ones. */
interface Layout {
  regular: Field[];
  tagged: Field[];
  absent: Field[];
}

function layout(fields: readonly Field[], version: number, flexible: boolean): Layout {
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

function isStruct(t: FieldType): t is StructType {
  return typeof t === 'object' && t.kind === 'struct';
}

function isArray(t: FieldType): t is ArrayType {
  return typeof t === 'object' && t.kind === 'array';
}

/** The value a field takes when it is absent or not given, as a JS expression. */
function defaultExpr(f: Field, ctx: Context): string {
  const d = f.default;
  if (d === null) return 'null';
  const t = f.type;
  if (isArray(t)) return '[]';
  if (isStruct(t)) return `${ctx.structFns(t).decodeDefault}()`;
  switch (t) {
    case 'int64':
      return `${d === undefined ? 0n : BigInt(d as number | bigint | string)}n`;
    case 'bool':
      return String(d === undefined ? false : d === true || d === 'true');
    case 'string':
    case 'uuid':
      return JSON.stringify(d ?? (t === 'uuid' ? 'AAAAAAAAAAAAAAAAAAAAAA' : ''));
    case 'bytes':
    case 'records':
      return 'EMPTY';
    default:
      return String(Number(d ?? 0));
  }
}

/** Whether a value equals a field's default, as a JS boolean expression over `x`. */
function isDefaultExpr(f: Field, x: string, ctx: Context): string {
  const t = f.type;
  if (f.default === null) return `(${x} == null)`;
  if (isArray(t)) return `(${x} == null || ${x}.length === 0)`;
  if (isStruct(t)) return `(${x} == null || ${ctx.structFns(t).isDefault}(${x}))`;
  if (t === 'bytes' || t === 'records') return `(${x} == null || ${x}.length === 0)`;
  return `(${x} === undefined || ${x} === ${defaultExpr(f, ctx)})`;
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
function minSize(t: FieldType, version: number, flexible: boolean): number {
  if (typeof t === 'string') return FIXED_SIZE[t] ?? 1;
  if (isArray(t)) return 1;
  const l = layout(t.fields, version, flexible);
  let n = flexible ? 1 : 0;
  for (const f of l.regular) n += minSize(f.type, version, flexible);
  return n;
}

class Context {
  readonly decls: string[] = [];
  private readonly decoders = new Map<StructType, { decode: string; decodeDefault: string; isDefault: string }>();
  private readonly encoders = new Map<StructType, string>();
  private next = 0;

  constructor(
    readonly version: number,
    readonly flexible: boolean,
    readonly api: string,
  ) {}

  id(prefix: string): string {
    return `${prefix}${this.next++}`;
  }

  /** `path` is where the structure is first met; errors inside it are reported under that path. */
  structFns(t: StructType, path = `${t.name}.`): { decode: string; decodeDefault: string; isDefault: string } {
    let fns = this.decoders.get(t);
    if (fns === undefined) {
      fns = { decode: this.id('d'), decodeDefault: this.id('z'), isDefault: this.id('isd') };
      this.decoders.set(t, fns);
      this.emitDecoder(t.fields, fns.decode, fns.decodeDefault, fns.isDefault, path);
    }
    return fns;
  }

  structEncoder(t: StructType, path = `${t.name}.`): string {
    let name = this.encoders.get(t);
    if (name === undefined) {
      name = this.id('e');
      this.encoders.set(t, name);
      this.emitEncoder(t.fields, name, path);
    }
    return name;
  }

  private flexFor(f: Field): boolean {
    return this.flexible && (f.flexibleVersions === undefined || inRange(f.flexibleVersions, this.version));
  }

  // ---- decoding ----

  private readExpr(t: FieldType, nullable: boolean, flex: boolean, r: string, path: string): string {
    if (isStruct(t)) {
      const decode = `${this.structFns(t, `${path}.`).decode}(${r})`;
      // A nullable struct carries a presence byte: -1 for null, 1 before a value.
      return nullable ? `(${r}.int8() < 0 ? null : ${decode})` : decode;
    }
    if (isArray(t)) {
      const n = this.id('n');
      const a = this.id('a');
      const len = flex ? 'compactArrayLength' : 'arrayLength';
      const elem = this.readExpr(t.of, false, flex, r, path);
      const fn = this.id('arr');
      this.decls.push(
        `function ${fn}(${r}) { const ${n} = ${r}.${len}(${minSize(t.of, this.version, this.flexible)}, ${nullable});` +
          ` if (${n} < 0) return null; const ${a} = []; for (let i = 0; i < ${n}; i++) ${a}.push(${elem}); return ${a}; }`,
      );
      return `${fn}(${r})`;
    }
    switch (t) {
      case 'int8':
      case 'int16':
      case 'uint16':
      case 'int32':
      case 'uint32':
      case 'int64':
      case 'float64':
      case 'bool':
      case 'uuid':
        return `${r}.${t}()`;
      case 'string':
        return `${r}.${flex ? 'compact' : ''}${flex ? (nullable ? 'NullableString' : 'String') : nullable ? 'nullableString' : 'string'}()`;
      case 'bytes':
      case 'records':
        return `${r}.${flex ? 'compact' : ''}${flex ? (nullable ? 'NullableBytes' : 'Bytes') : nullable ? 'nullableBytes' : 'bytes'}()`;
    }
    throw new ProtocolError(`unknown field type ${String(t)}`);
  }

  emitDecoder(fields: readonly Field[], name: string, defaultName: string, isDefaultName: string, path = ''): void {
    const l = layout(fields, this.version, this.flexible);
    const body: string[] = [];
    const vars = new Map<Field, string>();
    for (const f of l.regular) {
      const v = this.id('v');
      vars.set(f, v);
      const nullable = inRange(f.nullable, this.version);
      body.push(`r.path = ${JSON.stringify(path + f.name)};`);
      body.push(`const ${v} = ${this.readExpr(f.type, nullable, this.flexFor(f), 'r', path + f.name)};`);
    }
    for (const f of [...l.tagged, ...l.absent]) {
      const v = this.id('v');
      vars.set(f, v);
      body.push(`let ${v} = ${defaultExpr(f, this)};`);
    }
    const props = fields.map((f) => `${JSON.stringify(f.name)}: ${vars.get(f)}`);
    if (this.flexible) {
      const cases = l.tagged.map((f) => {
        const nullable = inRange(f.nullable, this.version);
        return `case ${f.tag}: ${vars.get(f)} = ${this.readExpr(f.type, nullable, true, 's', path + f.name)}; return true;`;
      });
      const cb = cases.length === 0 ? '' : `(tag, s) => { switch (tag) { ${cases.join(' ')} default: return false; } }`;
      body.push(
        `r.path = ${JSON.stringify(`${path}(tagged fields)`)};`,
        'let unk;',
        `if (r.offset < r.end && r.buf[r.offset] === 0) r.offset++; else unk = r.taggedFields(${cb});`,
      );
      props.push('_unknownTaggedFields: unk');
    }
    this.decls.push(`function ${name}(r) { ${body.join(' ')} return { ${props.join(', ')} }; }`);
    const defaults = fields.map((f) => `${JSON.stringify(f.name)}: ${defaultExpr(f, this)}`);
    this.decls.push(`function ${defaultName}() { return { ${defaults.join(', ')} }; }`);
    const checks = fields.map((f) => isDefaultExpr(f, `v[${JSON.stringify(f.name)}]`, this));
    this.decls.push(`function ${isDefaultName}(v) { return ${checks.length === 0 ? 'true' : checks.join(' && ')}; }`);
  }

  // ---- encoding ----

  private writeStmt(t: FieldType, nullable: boolean, flex: boolean, x: string, w: string, fieldName: string): string {
    const nullCheck = nullable
      ? ''
      : `if (${x} === null) throw new ProtocolError(${JSON.stringify(`${fieldName} may not be null in version ${this.version}`)}, { ...CTX, field: ${JSON.stringify(fieldName)} });`;
    if (isStruct(t)) {
      const encode = `${this.structEncoder(t, `${fieldName}.`)}(${w}, ${x} ?? {});`;
      return nullable ? `if (${x} == null) ${w}.int8(-1); else { ${w}.int8(1); ${encode} }` : `${nullCheck} ${encode}`;
    }
    if (isArray(t)) {
      const len = flex ? `${w}.uvarint(${x}.length + 1)` : `${w}.int32(${x}.length)`;
      const nul = flex ? `${w}.uvarint(0)` : `${w}.int32(-1)`;
      const item = this.id('it');
      const elem = this.writeStmt(t.of, false, flex, item, w, `${fieldName}[]`);
      return `${nullCheck} if (${x} == null) { ${nullable ? nul : `${len.replace(`${x}.length`, '0')}`}; } else { ${len}; for (const ${item} of ${x}) { ${elem} } }`;
    }
    switch (t) {
      case 'int8':
      case 'int16':
      case 'uint16':
      case 'int32':
      case 'uint32':
      case 'float64':
        return `${w}.${t}(${x} ?? 0);`;
      case 'int64':
        return `${w}.int64(typeof ${x} === 'bigint' ? ${x} : BigInt(${x} ?? 0));`;
      case 'bool':
        return `${w}.bool(!!${x});`;
      case 'uuid':
        return `${w}.uuid(${x} ?? 'AAAAAAAAAAAAAAAAAAAAAA');`;
      case 'string': {
        const m = flex
          ? nullable
            ? 'compactNullableString'
            : 'compactString'
          : nullable
            ? 'nullableString'
            : 'string';
        return `${nullCheck} ${w}.${m}(${x}${nullable ? '' : " ?? ''"});`;
      }
      case 'bytes':
      case 'records': {
        const m = flex ? (nullable ? 'compactNullableBytes' : 'compactBytes') : nullable ? 'nullableBytes' : 'bytes';
        return `${nullCheck} ${w}.${m}(${x}${nullable ? '' : ' ?? EMPTY'});`;
      }
    }
    throw new ProtocolError(`unknown field type ${String(t)}`);
  }

  emitEncoder(fields: readonly Field[], name: string, path = ''): void {
    const l = layout(fields, this.version, this.flexible);
    const body: string[] = [];
    for (const f of l.absent) {
      if (f.ignorable) continue;
      const x = `v[${JSON.stringify(f.name)}]`;
      const reason = `${path}${f.name} is not supported in version ${this.version}`;
      body.push(
        `if (${x} !== undefined && !${isDefaultExpr(f, x, this)}) throw new ProtocolError(${JSON.stringify(reason)}, { ...CTX, field: ${JSON.stringify(path + f.name)} });`,
      );
    }
    for (const f of l.regular) {
      const x = this.id('x');
      body.push(`const ${x} = v[${JSON.stringify(f.name)}];`);
      // A missing value takes the field's default, as Kafka's generated classes
      // do: for a nullable array that is `[]`, not null, which matters (a null
      // Metadata topic list means "all topics").
      const withDefault = `(${x} === undefined ? ${defaultExpr(f, this)} : ${x})`;
      const y = this.id('y');
      body.push(`const ${y} = ${withDefault};`);
      body.push(this.writeStmt(f.type, inRange(f.nullable, this.version), this.flexFor(f), y, 'w', path + f.name));
    }
    if (this.flexible) {
      const tags = this.id('tags');
      body.push(`let ${tags};`);
      for (const f of l.tagged) {
        const x = this.id('x');
        body.push(`const ${x} = v[${JSON.stringify(f.name)}];`);
        const stmt = this.writeStmt(f.type, inRange(f.nullable, this.version), true, x, 's', path + f.name);
        body.push(`if (!${isDefaultExpr(f, x, this)}) (${tags} ??= []).push([${f.tag}, (s) => { ${stmt} }]);`);
      }
      body.push(
        `if (${tags} === undefined && v._unknownTaggedFields === undefined) w.uvarint(0); else w.taggedFields(${tags} ?? [], v._unknownTaggedFields);`,
      );
    }
    this.decls.push(`function ${name}(w, v) { ${body.join(' ')} }`);
  }
}

function build<T>(def: MessageDef, version: number, entry: (ctx: Context) => string): T {
  if (!inRange(def.validVersions, version)) {
    throw new ProtocolError(`${def.name} has no version ${version} (valid: ${def.validVersions})`);
  }
  const ctx = new Context(version, inRange(def.flexibleVersions, version), def.name);
  const root = entry(ctx);
  const source = `${ctx.decls.join('\n')}\nreturn ${root};`;
  const factory = new Function('ProtocolError', 'EMPTY', 'CTX', source);
  return factory(ProtocolError, EMPTY, { api: def.name, version }) as T;
}

export function compileDecoder(def: MessageDef, version: number): DecodeFn {
  const decode = build<DecodeFn>(def, version, (ctx) => {
    ctx.emitDecoder(def.fields, 'decodeRoot', 'defaultRoot', 'isDefaultRoot');
    return 'decodeRoot';
  });
  return (r: Reader) => {
    try {
      return decode(r);
    } catch (err) {
      throw annotate(err, def.name, version, r);
    }
  };
}

export function compileEncoder(def: MessageDef, version: number): EncodeFn {
  return build<EncodeFn>(def, version, (ctx) => {
    ctx.emitEncoder(def.fields, 'encodeRoot');
    return 'encodeRoot';
  });
}

function annotate(err: unknown, api: string, version: number, r: Reader): unknown {
  if (err instanceof ProtocolError) return err.withContext({ api, version, field: r.path, offset: r.offset });
  // Anything else escaping a decoder is a bug or hostile input that slipped
  // past a check; it still surfaces as a typed error.
  return new ProtocolError(
    `cannot decode: ${(err as Error)?.message ?? String(err)}`,
    { api, version, field: r.path },
    { cause: err },
  );
}

export { Reader };
