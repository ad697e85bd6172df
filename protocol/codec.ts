import type { Reader } from '../codecs/reader.js';
import type { Writer } from '../codecs/writer.js';
import { compileDecoder, compileEncoder, type DecodeFn, type EncodeFn } from './compile.js';
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

/** Encoder and decoder of one message at one version. */
export interface MessageCodec<Value, Input> {
  readonly version: number;
  encode(w: Writer, value: Input): void;
  decode(r: Reader): Value;
}

const codecs = new WeakMap<MessageDef, Map<number, MessageCodec<unknown, unknown>>>();

/**
 * The codec of a message at a version, compiled on first use and cached, so
 * start-up pays only for the versions a connection actually negotiates.
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
    let encoder: EncodeFn | undefined;
    let decoder: DecodeFn | undefined;
    codec = {
      version,
      encode(w, value) {
        encoder ??= compileEncoder(def, version);
        encoder(w, value as Record<string, unknown>);
      },
      decode(r) {
        decoder ??= compileDecoder(def, version);
        return decoder(r);
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
