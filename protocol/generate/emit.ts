import { ProtocolError } from '../../codecs/errors.js';
import type { Field, FieldType, MessageDef, StructType } from '../schema.js';
import { inRange } from '../versions.js';
import { identifier, isArray, isStruct, layout, minSize } from './layout.js';

/**
 * Writes the source of one message's encoder and decoder at one version:
 * straight-line code with no per-field dispatch or closures at run time,
 * which is what the fetch hot path needs. Each function is specialised to
 * exactly the fields, encodings and defaults of its version.
 *
 * The same text serves two readers. The build-time generator (generate.ts)
 * writes it, typed, into protocol/generated/, which is what the library runs;
 * the run-time compiler (protocol/compile.ts) evaluates it untyped, only in
 * tests and benchmarks, to show that both decode alike. The generated code
 * refers to `ProtocolError`, `EMPTY_BYTES` and `annotateDecodeError` by name
 * (protocol/codec-runtime.ts, with the `EncodeContext` type), so both readers
 * must provide those three.
 */

/** How the emitted functions are named and whether they carry TypeScript annotations. */
export interface EmitOptions {
  /** Prefix of every function name, e.g. `FetchResponseV12`. */
  readonly prefix: string;
  /** TypeScript (for generated modules) rather than plain JavaScript (for `new Function`). */
  readonly typed: boolean;
}

/** The functions of one message version: `decls` in order, then the two entry points by name. */
export interface EmittedMessage {
  readonly decls: string[];
  readonly decode: string;
  readonly encode: string;
}

interface StructFns {
  decode: string;
  decodeDefault: string;
  isDefault: string;
}

class Emitter {
  readonly decls: string[] = [];
  private readonly decoders = new Map<StructType, StructFns>();
  private readonly encoders = new Map<StructType, string>();
  private readonly names = new Set<string>();
  private next = 0;

  constructor(
    readonly version: number,
    readonly flexible: boolean,
    readonly options: EmitOptions,
  ) {}

  /** A TypeScript annotation, or nothing when emitting JavaScript. */
  private t(annotation: string): string {
    return this.options.typed ? annotation : '';
  }

  /** A local variable name, unique within the function being emitted. */
  private local(prefix: string): string {
    return `${prefix}${this.next++}`;
  }

  /**
   * Runs `emit` with local names numbered from 0, as functions are emitted
   * from inside their callers: a function's text then depends only on what
   * it does, so identical functions of different versions are identical text.
   */
  private ownLocals<T>(emit: () => T): T {
    const saved = this.next;
    this.next = 0;
    try {
      return emit();
    } finally {
      this.next = saved;
    }
  }

  /** A function name that says what the function is for, e.g. `decodeFetchResponseV12PartitionData`. */
  private fnName(verb: string, what: string): string {
    const base = `${verb}${this.options.prefix}${identifier(what)}`;
    let name = base;
    for (let i = 2; this.names.has(name); i++) name = `${base}${i}`;
    this.names.add(name);
    return name;
  }

  private structFns(t: StructType, path = `${t.name}.`): StructFns {
    let fns = this.decoders.get(t);
    if (fns === undefined) {
      fns = {
        decode: this.fnName('decode', t.name),
        decodeDefault: this.fnName('default', t.name),
        isDefault: this.fnName('isDefault', t.name),
      };
      this.decoders.set(t, fns);
      this.emitDecoder(t.fields, fns, path);
    }
    return fns;
  }

  private structEncoder(t: StructType, path = `${t.name}.`): string {
    let name = this.encoders.get(t);
    if (name === undefined) {
      name = this.fnName('encode', t.name);
      this.encoders.set(t, name);
      this.emitEncoder(t.fields, name, path);
    }
    return name;
  }

  private flexFor(f: Field): boolean {
    return this.flexible && (f.flexibleVersions === undefined || inRange(f.flexibleVersions, this.version));
  }

  /**
   * An encoder's refusal. The version comes from the context `c` each encoder
   * is handed, not from the text, so that versions encoding a structure alike
   * share one function (see generate.ts).
   */
  private throwStmt(reason: string, field: string): string {
    const text = `\`${reason.replace(/[`$\\]/g, '\\$&')} in version \${c.version}\``;
    return `throw new ProtocolError(${text}, { ...c, field: ${JSON.stringify(field)} });`;
  }

  /** The value a field takes when it is absent or not given, as an expression. */
  private defaultExpr(f: Field): string {
    const d = f.default;
    if (d === null) return 'null';
    const t = f.type;
    if (isArray(t)) return '[]';
    if (isStruct(t)) return `${this.structFns(t).decodeDefault}()`;
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
        return 'EMPTY_BYTES';
      default:
        return String(Number(d ?? 0));
    }
  }

  /** Whether a value equals a field's default, as a boolean expression over `x`. */
  private isDefaultExpr(f: Field, x: string): string {
    const t = f.type;
    if (f.default === null) return `(${x} == null)`;
    if (isArray(t)) return `(${x} == null || ${x}.length === 0)`;
    if (isStruct(t)) return `(${x} == null || ${this.structFns(t).isDefault}(${x}))`;
    if (t === 'bytes' || t === 'records') return `(${x} == null || ${x}.length === 0)`;
    return `(${x} === undefined || ${x} === ${this.defaultExpr(f)})`;
  }

  // ---- decoding ----

  private readExpr(t: FieldType, nullable: boolean, flex: boolean, r: string, path: string): string {
    if (isStruct(t)) {
      const decode = `${this.structFns(t, `${path}.`).decode}(${r})`;
      // A nullable struct carries a presence byte: -1 for null, 1 before a value.
      return nullable ? `(${r}.int8() < 0 ? null : ${decode})` : decode;
    }
    if (isArray(t)) {
      const fn = this.fnName('read', `${path.slice(path.lastIndexOf('.') + 1)}Array`);
      this.ownLocals(() => {
        const n = this.local('n');
        const a = this.local('a');
        const len = flex ? 'compactArrayLength' : 'arrayLength';
        const elem = this.readExpr(t.of, false, flex, r, path);
        this.decls.push(
          `function ${fn}(${r}${this.t(': Reader')}) { const ${n} = ${r}.${len}(${minSize(t.of, this.version, this.flexible)}, ${nullable});` +
            ` if (${n} < 0) return null; const ${a}${this.t(': any[]')} = []; for (let i = 0; i < ${n}; i++) ${a}.push(${elem}); return ${a}; }`,
        );
      });
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

  /** Emits a structure's decoder; `defaults` is false for a message's root, which nothing nests. */
  emitDecoder(fields: readonly Field[], fns: StructFns, path = '', defaults = true): void {
    this.ownLocals(() => this.emitDecoderFns(fields, fns, path, defaults));
  }

  private emitDecoderFns(fields: readonly Field[], fns: StructFns, path: string, defaults: boolean): void {
    const l = layout(fields, this.version, this.flexible);
    const body: string[] = [];
    const vars = new Map<Field, string>();
    for (const f of l.regular) {
      const v = this.local('v');
      vars.set(f, v);
      const nullable = inRange(f.nullable, this.version);
      body.push(`r.path = ${JSON.stringify(path + f.name)};`);
      body.push(`const ${v} = ${this.readExpr(f.type, nullable, this.flexFor(f), 'r', path + f.name)};`);
    }
    for (const f of [...l.tagged, ...l.absent]) {
      const v = this.local('v');
      vars.set(f, v);
      body.push(`let ${v}${this.t(': any')} = ${this.defaultExpr(f)};`);
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
        `let unk${this.t(': UnknownTaggedField[] | undefined')};`,
        `if (r.offset < r.end && r.buf[r.offset] === 0) r.offset++; else unk = r.taggedFields(${cb});`,
      );
      props.push('_unknownTaggedFields: unk');
    }
    this.decls.push(
      `function ${fns.decode}(r${this.t(': Reader')}) { ${body.join(' ')} return { ${props.join(', ')} }; }`,
    );
    if (!defaults) return;
    const values = fields.map((f) => `${JSON.stringify(f.name)}: ${this.defaultExpr(f)}`);
    this.decls.push(`function ${fns.decodeDefault}() { return { ${values.join(', ')} }; }`);
    const checks = fields.map((f) => this.isDefaultExpr(f, `v[${JSON.stringify(f.name)}]`));
    this.decls.push(
      `function ${fns.isDefault}(v${this.t(': any')})${this.t(': boolean')} { return ${checks.length === 0 ? 'true' : checks.join(' && ')}; }`,
    );
  }

  // ---- encoding ----

  private writeStmt(t: FieldType, nullable: boolean, flex: boolean, x: string, w: string, fieldName: string): string {
    const nullCheck = nullable ? '' : `if (${x} === null) ${this.throwStmt(`${fieldName} may not be null`, fieldName)}`;
    if (isStruct(t)) {
      const encode = `${this.structEncoder(t, `${fieldName}.`)}(${w}, ${x} ?? {}, c);`;
      return nullable ? `if (${x} == null) ${w}.int8(-1); else { ${w}.int8(1); ${encode} }` : `${nullCheck} ${encode}`;
    }
    if (isArray(t)) {
      const len = flex ? `${w}.uvarint(${x}.length + 1)` : `${w}.int32(${x}.length)`;
      const nul = flex ? `${w}.uvarint(0)` : `${w}.int32(-1)`;
      const item = this.local('it');
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
        return `${nullCheck} ${w}.${m}(${x}${nullable ? '' : ' ?? EMPTY_BYTES'});`;
      }
    }
    throw new ProtocolError(`unknown field type ${String(t)}`);
  }

  /** Emits a structure's encoder `(w, v, c)`, `c` being the message and version for errors. */
  emitEncoder(fields: readonly Field[], name: string, path = ''): void {
    this.ownLocals(() => this.emitEncoderFn(fields, name, path));
  }

  private emitEncoderFn(fields: readonly Field[], name: string, path: string): void {
    const l = layout(fields, this.version, this.flexible);
    const body: string[] = [];
    for (const f of l.absent) {
      if (f.ignorable) continue;
      const x = `v[${JSON.stringify(f.name)}]`;
      const reason = `${path}${f.name} is not supported`;
      body.push(`if (${x} !== undefined && !${this.isDefaultExpr(f, x)}) ${this.throwStmt(reason, path + f.name)}`);
    }
    for (const f of l.regular) {
      const x = this.local('x');
      body.push(`const ${x} = v[${JSON.stringify(f.name)}];`);
      // A missing value takes the field's default, as Kafka's generated classes
      // do: for a nullable array that is `[]`, not null, which matters (a null
      // Metadata topic list means "all topics").
      const y = this.local('y');
      body.push(`const ${y} = (${x} === undefined ? ${this.defaultExpr(f)} : ${x});`);
      body.push(this.writeStmt(f.type, inRange(f.nullable, this.version), this.flexFor(f), y, 'w', path + f.name));
    }
    if (this.flexible) {
      const tags = this.local('tags');
      body.push(`let ${tags}${this.t(': Array<[number, (s: Writer) => void]> | undefined')};`);
      for (const f of l.tagged) {
        const x = this.local('x');
        body.push(`const ${x} = v[${JSON.stringify(f.name)}];`);
        const stmt = this.writeStmt(f.type, inRange(f.nullable, this.version), true, x, 's', path + f.name);
        body.push(`if (!${this.isDefaultExpr(f, x)}) (${tags} ??= []).push([${f.tag}, (s) => { ${stmt} }]);`);
      }
      body.push(
        `if (${tags} === undefined && v._unknownTaggedFields === undefined) w.uvarint(0); else w.taggedFields(${tags} ?? [], v._unknownTaggedFields);`,
      );
    }
    const params = `w${this.t(': Writer')}, v${this.t(': any')}, c${this.t(': EncodeContext')}`;
    this.decls.push(`function ${name}(${params})${this.t(': void')} { ${body.join(' ')} }`);
  }
}

/**
 * The source of a message's codec at a version. `decode` names a function
 * `(r) => object` that annotates any failure with the API, version, field and
 * offset; `encode` names `(w, value) => void`.
 */
export function emitMessage(def: MessageDef, version: number, options: EmitOptions): EmittedMessage {
  if (!inRange(def.validVersions, version)) {
    throw new ProtocolError(`${def.name} has no version ${version} (valid: ${def.validVersions})`);
  }
  const e = new Emitter(version, inRange(def.flexibleVersions, version), options);
  const fields = `decode${options.prefix}Fields`;
  e.emitDecoder(def.fields, { decode: fields, decodeDefault: '', isDefault: '' }, '', false);
  const context = `${options.prefix}Context`;
  e.decls.push(
    `const ${context}${options.typed ? ': EncodeContext' : ''} = { api: ${JSON.stringify(def.name)}, version: ${version} };`,
  );
  const encodeFields = `encode${options.prefix}Fields`;
  e.emitEncoder(def.fields, encodeFields);
  const encode = `encode${options.prefix}`;
  e.decls.push(
    `function ${encode}(w${options.typed ? ': Writer' : ''}, v${options.typed ? ': any' : ''})${options.typed ? ': void' : ''} { ${encodeFields}(w, v, ${context}); }`,
  );
  const decode = `decode${options.prefix}`;
  const reader = options.typed ? 'r: Reader' : 'r';
  const result = options.typed ? ': Record<string, unknown>' : '';
  e.decls.push(
    `function ${decode}(${reader})${result} { try { return ${fields}(r); } catch (err) { throw annotateDecodeError(err, ${JSON.stringify(def.name)}, ${version}, r); } }`,
  );
  return { decls: e.decls, decode, encode };
}

/** The versions a message definition covers, in order. */
export function versionsOf(def: MessageDef): number[] {
  const out: number[] = [];
  // Open ranges end at the newest version any definition uses; 64 is far above Kafka's.
  for (let v = 0; v < 64; v++) if (inRange(def.validVersions, v)) out.push(v);
  return out;
}
