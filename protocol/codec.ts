import { ProtocolError } from '../codecs/errors.js';
import type { Reader } from '../codecs/reader.js';
import type { Writer } from '../codecs/writer.js';
import { definitionFingerprint, type GeneratedCodec, type MessageCodecTable } from './codec-runtime.js';
import { GENERATED_CODECS } from './generated/index.js';
import type {
  ApiDef,
  Field,
  MessageDef,
  RequestInput,
  RequestOf,
  ResponseInput,
  ResponseOf,
  StructInput,
  StructValue,
} from './schema.js';
import { inRange } from './versions.js';

/**
 * The codec of a message at a version, as the library uses it. The encoders
 * and decoders are generated at build time (`npm run generate`, into
 * protocol/generated/): plain named functions, so the library runs where
 * code generation from strings is not allowed (`node
 * --disallow-code-generation-from-strings`, CSP-restricted runtimes) and
 * stack traces and coverage name them.
 */

/** Encoder and decoder of one message at one version. */
export interface MessageCodec<Value, Input> {
  readonly version: number;
  encode(w: Writer, value: Input): void;
  decode(r: Reader): Value;
}

/** Codecs of definitions the generator does not see (an API only a test speaks), by definition. */
const provided = new WeakMap<MessageDef, MessageCodecTable>();
/** The generated codecs found for a definition, once its fingerprint has been checked. */
const checked = new WeakMap<MessageDef, MessageCodecTable>();

/**
 * Makes codecs available for a definition that is not among the generated
 * ones, e.g. an API only a test speaks (tests build them with compile.ts).
 */
export function provideCodecs(def: MessageDef, table: MessageCodecTable): void {
  provided.set(def, table);
}

function tableOf(def: MessageDef): MessageCodecTable {
  let table = checked.get(def) ?? provided.get(def);
  if (table !== undefined) return table;
  const generated = GENERATED_CODECS[def.name];
  if (generated === undefined) {
    throw new ProtocolError(`no generated codecs for ${def.name}: run \`npm run generate\` after adding a definition`, {
      api: def.name,
    });
  }
  if (generated.fingerprint !== definitionFingerprint(def)) {
    throw new ProtocolError(
      `the generated codecs of ${def.name} are older than its definition: run \`npm run generate\``,
      { api: def.name },
    );
  }
  table = generated.versions;
  checked.set(def, table);
  return table;
}

function codecAt(def: MessageDef, version: number): GeneratedCodec {
  const codec = inRange(def.validVersions, version) ? tableOf(def)[version] : undefined;
  if (codec === undefined) {
    throw new ProtocolError(`${def.name} has no version ${version} (valid: ${def.validVersions})`, {
      api: def.name,
      version,
    });
  }
  return codec;
}

const codecs = new WeakMap<MessageDef, Map<number, MessageCodec<unknown, unknown>>>();

/**
 * The codec of a message at a version, cached. Finding the generated
 * functions is deferred to the first encode or decode, so that asking for a
 * version the definition lacks fails where the message is used.
 */
export function messageCodec<F extends readonly Field[]>(
  def: MessageDef<F>,
  version: number,
): MessageCodec<StructValue<F>, StructInput<F>> {
  let byVersion = codecs.get(def);
  if (byVersion === undefined) {
    byVersion = new Map();
    codecs.set(def, byVersion);
  }
  let codec = byVersion.get(version);
  if (codec === undefined) {
    let found: GeneratedCodec | undefined;
    codec = {
      version,
      encode(w, value) {
        found ??= codecAt(def, version);
        found.encode(w, value);
      },
      decode(r) {
        found ??= codecAt(def, version);
        return found.decode(r);
      },
    };
    byVersion.set(version, codec);
  }
  return codec as MessageCodec<StructValue<F>, StructInput<F>>;
}

export function requestCodec<A extends ApiDef>(api: A, version: number): MessageCodec<RequestOf<A>, RequestInput<A>> {
  return messageCodec(api.request, version) as unknown as MessageCodec<RequestOf<A>, RequestInput<A>>;
}

export function responseCodec<A extends ApiDef>(
  api: A,
  version: number,
): MessageCodec<ResponseOf<A>, ResponseInput<A>> {
  return messageCodec(api.response, version) as unknown as MessageCodec<ResponseOf<A>, ResponseInput<A>>;
}
