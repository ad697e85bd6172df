import { expect } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { type MessageCodec, requestCodec, responseCodec } from '../../../protocol/codec.js';
import type { ApiDef, RequestOf, ResponseOf } from '../../../protocol/schema.js';
import { inRange, parseRange } from '../../../protocol/versions.js';

/** Helpers shared by the per-API definition tests. */

export function encode<I>(codec: MessageCodec<unknown, I>, value: I): Buffer {
  const w = new Writer();
  codec.encode(w, value);
  return w.toBuffer();
}

/** Hex written with spaces for readability, spaces removed. */
export function hex(text: string): string {
  return text.replace(/\s+/g, '');
}

/** `value` in the versions of `range`, otherwise the field's default (what a decoder fills in). */
export function when<T>(version: number, range: string, value: T, otherwise: T): T {
  return inRange(range, version) ? value : otherwise;
}

/** Every version in a range such as `'0-9'`. */
export function versionsIn(range: string): number[] {
  const { min, max } = parseRange(range);
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

/** Every version an API defines. */
export function versionsOf(api: ApiDef): number[] {
  return versionsIn(api.request.validVersions);
}

/** Encodes a complete value (every field, defaults where the version lacks it) and expects it back. */
export function roundTrip<A extends ApiDef>(
  api: A,
  v: number,
  request: (v: number) => RequestOf<A>,
  response: (v: number) => ResponseOf<A>,
): void {
  const req = requestCodec(api, v);
  const reqValue = request(v);
  const reqReader = new Reader(encode(req, reqValue as never));
  expect(req.decode(reqReader)).toEqual(reqValue);
  expect(reqReader.remaining).toBe(0);

  const res = responseCodec(api, v);
  const resValue = response(v);
  const resReader = new Reader(encode(res, resValue as never));
  expect(res.decode(resReader)).toEqual(resValue);
  expect(resReader.remaining).toBe(0);
}

/** The ProtocolError a decode throws; fails the test if it throws nothing or something else. */
export function decodeError(decode: () => unknown): ProtocolError {
  try {
    decode();
  } catch (e) {
    if (e instanceof ProtocolError) return e;
    throw e;
  }
  throw new Error('decoding did not fail');
}

// Fixed topic ids in Kafka's text form (URL-safe base64 of 16 bytes).
export const ID_HEX = '0123456789abcdef0123456789abcdef';
export const TOPIC_ID = Buffer.from(ID_HEX, 'hex').toString('base64url');
export const ZERO_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
