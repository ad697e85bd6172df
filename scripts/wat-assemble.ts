/**
 * A small WebAssembly text (WAT) assembler for exactly the subset tidemark's hand-written modules use
 * (codecs/crc32c.wat): one exported memory, exported functions with i32/i64 params, results and locals,
 * and flat (unfolded) instructions from the table below. It exists so the module can be rebuilt and
 * checked without a native toolchain (wabt): test/unit/codecs/crc-wasm.test.ts assembles the .wat and
 * compares the result with the bytes embedded in codecs/crc32c-wasm.ts.
 *
 *   npx tsx scripts/wat-assemble.ts codecs/crc32c.wat     (prints the module as base64)
 *   npx tsx scripts/wat-assemble.ts codecs/crc32c.wat --relaxed-swizzle
 *
 * `--relaxed-swizzle` (AssembleOptions.relaxedSwizzle) writes every `i8x16.swizzle` as relaxed SIMD's
 * `i8x16.relaxed_swizzle`: one source for both modules. The two agree whenever every index is below 16 (above,
 * the relaxed one's result is the runtime's choice), so only a .wat whose indices are all masked to a nibble,
 * as crc32c.wat's are, may be assembled this way.
 */
import { readFileSync } from 'node:fs';

type Sexp = string | Sexp[];

const VALTYPES: Record<string, number> = { i32: 0x7f, i64: 0x7e, v128: 0x7b };

/** The immediates an instruction takes (`mem`: an optional offset=N, encoded with the natural alignment). */
type Immediate = 'none' | 'local' | 'depth' | 'block' | 'i32' | 'i64' | 'mem' | 'lane' | 'shuffle';

/** Opcode, immediate kind and (for memory access) alignment of every instruction the subset knows. */
const INSTRUCTIONS: Record<string, [number, Immediate, number?]> = {
  block: [0x02, 'block'],
  loop: [0x03, 'block'],
  end: [0x0b, 'none'],
  br: [0x0c, 'depth'],
  br_if: [0x0d, 'depth'],
  return: [0x0f, 'none'],
  'local.get': [0x20, 'local'],
  'local.set': [0x21, 'local'],
  'local.tee': [0x22, 'local'],
  'i32.load': [0x28, 'mem', 2],
  'i64.load': [0x29, 'mem', 3],
  'i32.load8_u': [0x2d, 'mem', 0],
  'i32.const': [0x41, 'i32'],
  'i64.const': [0x42, 'i64'],
  'i32.eqz': [0x45, 'none'],
  'i32.eq': [0x46, 'none'],
  'i32.ne': [0x47, 'none'],
  'i32.lt_u': [0x49, 'none'],
  'i32.ge_u': [0x4f, 'none'],
  'i32.add': [0x6a, 'none'],
  'i32.sub': [0x6b, 'none'],
  'i32.and': [0x71, 'none'],
  'i32.or': [0x72, 'none'],
  'i32.xor': [0x73, 'none'],
  'i32.shl': [0x74, 'none'],
  'i32.shr_u': [0x76, 'none'],
  'i64.shr_u': [0x88, 'none'],
  'i32.wrap_i64': [0xa7, 'none'],
  if: [0x04, 'block'],
  else: [0x05, 'none'],
  'i32.load16_u': [0x2f, 'mem', 1],
  'i32.store': [0x36, 'mem', 2],
  'i64.store': [0x37, 'mem', 3],
  'i32.store8': [0x3a, 'mem', 0],
  'i32.store16': [0x3b, 'mem', 1],
  'i32.gt_u': [0x4b, 'none'],
  'i32.le_u': [0x4d, 'none'],
  'i64.eqz': [0x50, 'none'],
  'i32.mul': [0x6c, 'none'],
  'i64.ctz': [0x7a, 'none'],
  'i64.xor': [0x85, 'none'],
};

/**
 * The fixed-width SIMD instructions of the subset (prefix 0xfd, then the opcode as LEB128): lane immediates
 * are one byte each, `i8x16.shuffle` takes sixteen of them.
 */
const SIMD_INSTRUCTIONS: Record<string, [number, Immediate, number?]> = {
  'v128.load': [0x00, 'mem', 4],
  'v128.store': [0x0b, 'mem', 4],
  'i8x16.shuffle': [0x0d, 'shuffle'],
  'i8x16.swizzle': [0x0e, 'none'],
  'i8x16.relaxed_swizzle': [0x100, 'none'],
  'i8x16.splat': [0x0f, 'none'],
  'i8x16.extract_lane_u': [0x16, 'lane'],
  'i8x16.replace_lane': [0x17, 'lane'],
  'v128.and': [0x4e, 'none'],
  'v128.xor': [0x51, 'none'],
  'i16x8.shr_u': [0x8d, 'none'],
};

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /;;[^\n]*|\s+|\(|\)|"[^"]*"|[^\s()";]+/g;
  for (const m of text.matchAll(re)) {
    const t = m[0];
    if (t.startsWith(';;') || /^\s+$/.test(t)) continue;
    tokens.push(t);
  }
  return tokens;
}

function parse(tokens: string[]): Sexp {
  let i = 0;
  const read = (): Sexp => {
    const t = tokens[i++];
    if (t === undefined) throw new Error('WAT: unexpected end of input');
    if (t === ')') throw new Error('WAT: unexpected )');
    if (t !== '(') return t;
    const list: Sexp[] = [];
    while (tokens[i] !== ')') {
      if (i >= tokens.length) throw new Error('WAT: missing )');
      list.push(read());
    }
    i++;
    return list;
  };
  const root = read();
  if (i !== tokens.length) throw new Error('WAT: text after the module');
  return root;
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(value: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(value & 0x7fn);
    value >>= 7n;
    if ((value === 0n && (b & 0x40) === 0) || (value === -1n && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

function name(s: string): number[] {
  const bytes = [...Buffer.from(s.slice(1, -1), 'utf8')];
  return [...uleb(bytes.length), ...bytes];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function exportName(field: Sexp): string | undefined {
  return Array.isArray(field) && field[0] === 'export' ? (field[1] as string) : undefined;
}

interface Func {
  exportAs?: string;
  params: number[];
  results: number[];
  locals: number[];
  code: number[];
}

function assembleFunc(fields: Sexp[], options: AssembleOptions): Func {
  const func: Func = { params: [], results: [], locals: [], code: [] };
  const names = new Map<string, number>();
  let body = 0;
  for (; body < fields.length; body++) {
    const field = fields[body];
    if (!Array.isArray(field)) break;
    const head = field[0];
    if (head === 'export') func.exportAs = field[1] as string;
    else if (head === 'param' || head === 'local') {
      const isNamed = typeof field[1] === 'string' && field[1].startsWith('$');
      const types = field.slice(isNamed ? 2 : 1) as string[];
      if (isNamed) names.set(field[1] as string, func.params.length + func.locals.length);
      for (const t of types) {
        const vt = VALTYPES[t];
        if (vt === undefined) throw new Error(`WAT: unknown type ${t}`);
        (head === 'param' ? func.params : func.locals).push(vt);
      }
    } else if (head === 'result') func.results.push(...(field.slice(1) as string[]).map((t) => VALTYPES[t]));
    else throw new Error(`WAT: unsupported func field ${String(head)}`);
  }
  const words = fields.slice(body);
  for (let i = 0; i < words.length; i++) {
    const op = words[i];
    if (typeof op !== 'string') throw new Error('WAT: folded instructions are not supported');
    const arg = (): string => {
      const a = words[++i];
      if (typeof a !== 'string') throw new Error(`WAT: ${op} needs an immediate`);
      return a;
    };
    const simd = SIMD_INSTRUCTIONS[op === 'i8x16.swizzle' && options.relaxedSwizzle ? 'i8x16.relaxed_swizzle' : op];
    const spec = simd ?? INSTRUCTIONS[op];
    if (spec === undefined) throw new Error(`WAT: unsupported instruction ${op}`);
    const [opcode, kind, align] = spec;
    if (simd !== undefined) func.code.push(0xfd, ...uleb(opcode));
    else func.code.push(opcode);
    if (kind === 'lane' || kind === 'shuffle') {
      for (let n = kind === 'lane' ? 1 : 16; n > 0; n--) {
        const lane = Number(arg());
        if (!Number.isInteger(lane) || lane < 0 || lane > 31) throw new Error(`WAT: bad lane index in ${op}`);
        func.code.push(lane);
      }
    } else if (kind === 'block') func.code.push(0x40);
    else if (kind === 'local') {
      const a = arg();
      const index = a.startsWith('$') ? names.get(a) : Number(a);
      if (index === undefined || !Number.isInteger(index)) throw new Error(`WAT: unknown local ${a}`);
      func.code.push(...uleb(index));
    } else if (kind === 'depth') func.code.push(...uleb(Number(arg())));
    else if (kind === 'i32' || kind === 'i64') func.code.push(...sleb(BigInt(arg())));
    else if (kind === 'mem') {
      let offset = 0;
      const next = words[i + 1];
      if (typeof next === 'string' && next.startsWith('offset=')) {
        offset = Number(next.slice('offset='.length));
        i++;
      }
      func.code.push(...uleb(align ?? 0), ...uleb(offset));
    }
  }
  func.code.push(0x0b);
  return func;
}

/** How assembleWat writes what it reads. */
export interface AssembleOptions {
  /** Every `i8x16.swizzle` as `i8x16.relaxed_swizzle` (see the header). */
  relaxedSwizzle?: boolean;
}

/** Assembles WAT text of the supported subset into a WebAssembly binary module. */
export function assembleWat(text: string, options: AssembleOptions = {}): Uint8Array {
  const root = parse(tokenize(text));
  if (!Array.isArray(root) || root[0] !== 'module') throw new Error('WAT: expected (module ...)');
  const funcs: Func[] = [];
  let memory: { exportAs?: string; pages: number } | undefined;
  for (const field of root.slice(1)) {
    if (!Array.isArray(field)) throw new Error('WAT: unexpected atom in module');
    if (field[0] === 'memory') {
      memory = { exportAs: exportName(field[1]), pages: Number(field[field.length - 1]) };
    } else if (field[0] === 'func') funcs.push(assembleFunc(field.slice(1), options));
    else throw new Error(`WAT: unsupported module field ${String(field[0])}`);
  }
  const exports: number[][] = [];
  funcs.forEach((f, i) => {
    if (f.exportAs !== undefined) exports.push([...name(f.exportAs), 0x00, ...uleb(i)]);
  });
  if (memory?.exportAs !== undefined) exports.push([...name(memory.exportAs), 0x02, 0]);
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(funcs.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]))),
    ...section(3, vec(funcs.map((_, i) => uleb(i)))),
    ...(memory === undefined ? [] : section(5, vec([[0x00, ...uleb(memory.pages)]]))),
    ...section(7, vec(exports)),
    ...section(
      10,
      vec(
        funcs.map((f) => {
          const locals = vec(f.locals.map((t) => [1, t]));
          const body = [...locals, ...f.code];
          return [...uleb(body.length), ...body];
        }),
      ),
    ),
  ];
  return Uint8Array.from(bytes);
}

if (process.argv[1]?.endsWith('wat-assemble.ts') && process.argv[2] !== undefined) {
  const relaxedSwizzle = process.argv.includes('--relaxed-swizzle');
  console.log(Buffer.from(assembleWat(readFileSync(process.argv[2], 'utf8'), { relaxedSwizzle })).toString('base64'));
}
