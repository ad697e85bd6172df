import type { UnknownTaggedField } from '../codecs/reader.js';
import type { GeneratedMessageTypes } from './generated/index.js';
import type { VersionRange } from './versions.js';

/**
 * The project's notation for Kafka messages: one definition per API that
 * covers all of its versions. Encoders and decoders are generated from it
 * at build time (`npm run generate`, protocol/generate/) and its TypeScript
 * value types are inferred from it, so a field is written down exactly once.
 */

export type PrimitiveType =
  | 'int8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'float64'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'records'
  | 'uuid';

export interface StructType<F extends readonly Field[] = readonly Field[]> {
  readonly kind: 'struct';
  /** The structure's name, as Kafka's schema names it (for conformance). */
  readonly name: string;
  readonly fields: F;
}

export interface ArrayType<E extends FieldType = FieldType> {
  readonly kind: 'array';
  readonly of: E;
}

export type FieldType = PrimitiveType | StructType | ArrayType;

export type DefaultValue = number | bigint | boolean | string | null;

export interface FieldOptions {
  /** Versions in which the value may be null. */
  readonly nullable?: VersionRange;
  /** Tag number, for a field carried in the tagged-field section. */
  readonly tag?: number;
  /** Versions in which the field is tagged (defaults to `versions`). */
  readonly taggedVersions?: VersionRange;
  /** Value used when the field is absent, not given, or not in a version. */
  readonly default?: DefaultValue;
  /** Whether a non-default value may be dropped silently in versions without the field. */
  readonly ignorable?: boolean;
  /** Overrides the message's flexible versions for this field's encoding. */
  readonly flexibleVersions?: VersionRange;
  /**
   * One line saying what the field means, in the project's own words. The
   * generator (protocol/generate/) writes it as JSDoc on the generated value
   * types, so an editor shows it on hover; it never affects the encoding.
   */
  readonly doc?: string;
}

export interface Field<N extends string = string, T extends FieldType = FieldType, Nullable extends boolean = boolean>
  extends FieldOptions {
  readonly name: N;
  readonly type: T;
  readonly versions: VersionRange;
  /** Type-level marker only. */
  readonly __nullable?: Nullable;
}

export function field<
  const N extends string,
  const T extends FieldType,
  const O extends FieldOptions = Record<never, never>,
>(name: N, type: T, versions: VersionRange, options?: O): Field<N, T, O extends { nullable: string } ? true : false> {
  return { name, type, versions, ...options } as Field<N, T, O extends { nullable: string } ? true : false>;
}

export function struct<const F extends readonly Field[]>(name: string, fields: F): StructType<F> {
  return { kind: 'struct', name, fields };
}

export function array<const E extends FieldType>(of: E): ArrayType<E> {
  return { kind: 'array', of };
}

/** An array of a named structure. */
export function structs<const F extends readonly Field[]>(name: string, fields: F): ArrayType<StructType<F>> {
  return array(struct(name, fields));
}

export interface MessageDef<F extends readonly Field[] = readonly Field[]> {
  /** Kafka's name for the message, e.g. `MetadataRequest`. */
  readonly name: string;
  readonly validVersions: VersionRange;
  readonly flexibleVersions: VersionRange;
  readonly fields: F;
}

export interface ApiDef<
  Req extends readonly Field[] = readonly Field[],
  Res extends readonly Field[] = readonly Field[],
  Name extends string = string,
> {
  readonly name: Name;
  readonly key: number;
  readonly request: MessageDef<Req>;
  readonly response: MessageDef<Res>;
}

export function defineApi<
  const Name extends string,
  const Req extends readonly Field[],
  const Res extends readonly Field[],
>(spec: {
  name: Name;
  key: number;
  /** Every version tidemark speaks: the union of what Kafka 3.9 and 4.x accept. */
  versions: VersionRange;
  flexible: VersionRange;
  request: Req;
  response: Res;
}): ApiDef<Req, Res, Name> {
  const message = <F extends readonly Field[]>(suffix: string, fields: F): MessageDef<F> => ({
    name: spec.name + suffix,
    validVersions: spec.versions,
    flexibleVersions: spec.flexible,
    fields,
  });
  return {
    name: spec.name,
    key: spec.key,
    request: message('Request', spec.request),
    response: message('Response', spec.response),
  };
}

// ---- value types, inferred from definitions ----

export type NumberType = 'int8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float64';

export type ValueOf<T> = T extends NumberType
  ? number
  : T extends 'int64'
    ? bigint
    : T extends 'bool'
      ? boolean
      : T extends 'string' | 'uuid'
        ? string
        : T extends 'bytes' | 'records'
          ? Buffer
          : T extends ArrayType<infer E>
            ? ValueOf<E>[]
            : T extends StructType<infer F>
              ? StructValue<F>
              : never;

export type InputOf<T> = T extends NumberType
  ? number
  : T extends 'int64'
    ? bigint
    : T extends 'bool'
      ? boolean
      : T extends 'string' | 'uuid'
        ? string
        : T extends 'bytes' | 'records'
          ? Uint8Array
          : T extends ArrayType<infer E>
            ? InputOf<E>[]
            : T extends StructType<infer F>
              ? StructInput<F>
              : never;

export type Nullable<F, V> = F extends Field<string, FieldType, infer N> ? (N extends true ? V | null : V) : V;

/** A decoded structure: every field present (defaults for fields not in the version). */
export type StructValue<F extends readonly Field[]> = {
  [K in F[number] as K['name']]: Nullable<K, ValueOf<K['type']>>;
} & { _unknownTaggedFields?: UnknownTaggedField[] };

/** A structure to encode: any field may be left out and takes its default. */
export type StructInput<F extends readonly Field[]> = {
  [K in F[number] as K['name']]?: Nullable<K, InputOf<K['type']>>;
} & { _unknownTaggedFields?: UnknownTaggedField[] };

/**
 * A message's type: the generated interface (protocol/generated/, with each
 * field's `doc` as hover text) when it is the very type the definition
 * infers, else the inferred one. A definition edited since `npm run
 * generate` thus loses only the hover text until the next generation, never
 * its fields' types.
 */
type Documented<Name extends string, Inferred> = Name extends keyof GeneratedMessageTypes
  ? Same<Inferred, GeneratedMessageTypes[Name]> extends true
    ? GeneratedMessageTypes[Name]
    : Inferred
  : Inferred;

/** Whether two types are assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * What may be given to encode a value of type `V`: every field optional,
 * bytes as any Uint8Array. A homomorphic mapping, so each field keeps its JSDoc.
 */
export type InputOfValue<V> = {
  [K in keyof V]?: K extends '_unknownTaggedFields' ? V[K] : InputOfField<V[K]>;
};

type InputOfField<T> = T extends Buffer
  ? Uint8Array
  : T extends readonly (infer E)[]
    ? InputOfField<E>[]
    : T extends object
      ? InputOfValue<T>
      : T;

type DocumentedInput<Name extends string, Fields extends readonly Field[]> = Name extends keyof GeneratedMessageTypes
  ? Same<StructValue<Fields>, GeneratedMessageTypes[Name]> extends true
    ? InputOfValue<GeneratedMessageTypes[Name]>
    : StructInput<Fields>
  : StructInput<Fields>;

export type RequestOf<A> =
  A extends ApiDef<infer Req, readonly Field[], infer N> ? Documented<`${N}Request`, StructValue<Req>> : never;
export type RequestInput<A> =
  A extends ApiDef<infer Req, readonly Field[], infer N> ? DocumentedInput<`${N}Request`, Req> : never;
export type ResponseOf<A> =
  A extends ApiDef<readonly Field[], infer Res, infer N> ? Documented<`${N}Response`, StructValue<Res>> : never;
export type ResponseInput<A> =
  A extends ApiDef<readonly Field[], infer Res, infer N> ? DocumentedInput<`${N}Response`, Res> : never;

/**
 * The value and input types of a message that is not an API of its own (the consumer protocol's embedded
 * messages): the generated, documented interface when it is current, like `RequestOf` and `RequestInput`.
 */
export type MessageValueOf<M extends MessageDef> = Documented<M['name'], StructValue<M['fields']>>;
export type MessageInputOf<M extends MessageDef> = DocumentedInput<M['name'], M['fields']>;
