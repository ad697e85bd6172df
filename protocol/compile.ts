import type { Reader } from '../codecs/reader.js';
import type { Writer } from '../codecs/writer.js';
import type { MessageCodec } from './codec.js';
import { annotateDecodeError, EMPTY_BYTES, type MessageCodecTable, ProtocolError } from './codec-runtime.js';
import { emitMessage, versionsOf } from './generate/emit.js';
import type { Field, MessageDef, StructInput, StructValue } from './schema.js';

/**
 * The run-time compiler: evaluates, with `new Function`, the same source the
 * build-time generator writes into protocol/generated/. The library never
 * imports this file (it would fail under `--disallow-code-generation-from-strings`
 * and in CSP-restricted runtimes); tests use it to prove the generated
 * modules equal what the definitions compile to, and the benchmark to
 * compare the two.
 */

export type DecodeFn = (r: Reader) => Record<string, unknown>;
export type EncodeFn = (w: Writer, value: Record<string, unknown>) => void;

function compile(def: MessageDef, version: number): { decode: DecodeFn; encode: EncodeFn } {
  const emitted = emitMessage(def, version, { prefix: `${def.name}V${version}`, typed: false });
  const source = `${emitted.decls.join('\n')}\nreturn { decode: ${emitted.decode}, encode: ${emitted.encode} };`;
  const factory = new Function('ProtocolError', 'EMPTY_BYTES', 'annotateDecodeError', source);
  return factory(ProtocolError, EMPTY_BYTES, annotateDecodeError);
}

/** Every version of a definition, compiled: what `provideCodecs` takes for an API only a test speaks. */
export function compileCodecTable(def: MessageDef): MessageCodecTable {
  const table: Record<number, { decode: DecodeFn; encode: EncodeFn }> = {};
  for (const version of versionsOf(def)) table[version] = compile(def, version);
  return table;
}

/** A codec compiled from the definition given, whether or not generated codecs exist for it. */
export function compiledCodec<F extends readonly Field[]>(
  def: MessageDef<F>,
  version: number,
): MessageCodec<StructValue<F>, StructInput<F>> {
  const { decode, encode } = compile(def, version);
  return { version, decode: decode as (r: Reader) => StructValue<F>, encode };
}

export function compileDecoder(def: MessageDef, version: number): DecodeFn {
  return compile(def, version).decode;
}

export function compileEncoder(def: MessageDef, version: number): EncodeFn {
  return compile(def, version).encode;
}
