import { crc32 } from '../codecs/crc.js';
import { ProtocolError } from '../codecs/errors.js';
import type { Reader } from '../codecs/reader.js';
import type { Writer } from '../codecs/writer.js';

/**
 * What every message codec refers to at run time, whether it was generated at
 * build time (protocol/generated/) or compiled in a test (compile.ts): the
 * shared empty buffer a missing `bytes` field encodes as, and the wrapper that
 * turns any failure inside a decoder into a ProtocolError naming the API,
 * version, field and byte offset.
 */

export { ProtocolError };

export const EMPTY_BYTES: Buffer = Buffer.alloc(0);

export function annotateDecodeError(err: unknown, api: string, version: number, r: Reader): ProtocolError {
  if (err instanceof ProtocolError) return err.withContext({ api, version, field: r.path, offset: r.offset });
  // Anything else escaping a decoder is a bug or hostile input that slipped
  // past a check; it still surfaces as a typed error.
  return new ProtocolError(
    `cannot decode: ${(err as Error)?.message ?? String(err)}`,
    { api, version, field: r.path },
    { cause: err },
  );
}

/** What an encoder's errors name: the message and the version being written. */
export interface EncodeContext {
  readonly api: string;
  readonly version: number;
}

/** A message's generated decoder and encoder at one version. */
export interface GeneratedCodec {
  decode(r: Reader): Record<string, unknown>;
  encode(w: Writer, value: any): void;
}

/** A message's generated codecs by version. */
export type MessageCodecTable = Readonly<Record<number, GeneratedCodec>>;

/**
 * `build`'s result, made the first time it is asked for: a generated module's codec functions, made when its API
 * is first used (protocol/generate/generate.ts says why).
 */
export function madeOnFirstUse<T extends object>(build: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= build();
    return made;
  };
}

/** A message's generated codecs, with the fingerprint of the definition they were generated from. */
export interface GeneratedMessage {
  readonly fingerprint: string;
  readonly versions: MessageCodecTable;
}

/**
 * A short digest of a definition (every field, version range, option and
 * doc), written into the generated module and compared on first use: a
 * definition edited since `npm run generate` ran is then a clear error, not
 * a codec that silently encodes the old fields.
 */
export function definitionFingerprint(def: unknown): string {
  const text = JSON.stringify(def, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
  return crc32(Buffer.from(text)).toString(16).padStart(8, '0') + text.length.toString(16);
}
