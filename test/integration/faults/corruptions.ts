/**
 * Corruptions for the fault proxy's rewrite actions: decode a real broker response, change one field to what a
 * flipped bit would make of it, encode it again (a specific, known corruption); or replace the body with
 * garbage, cut it short, flip random bits, claim an impossible size, answer in another protocol (for the
 * seeded soak). Every rewrite keeps the correlation id unless the corruption is about framing itself.
 */
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { responseCodec } from '../../../protocol/codec.js';
import { responseHeaderVersion } from '../../../protocol/headers.js';
import { API_DEFINITIONS } from '../../../protocol/index.js';
import type { ApiDef, ResponseOf } from '../../../protocol/schema.js';
import type { ResponseContext, ResponseRewrite } from '../../harness/fault-proxy.js';

/** A response rewritten field by field: `change` edits the decoded body in place. */
export function rewriteBody<A extends ApiDef>(api: A, change: (body: ResponseOf<A>) => void): ResponseRewrite {
  return (response) => {
    const r = new Reader(response.frame, 4);
    if (responseHeaderVersion(api, response.apiVersion) >= 1) r.taggedFields();
    const header = response.frame.subarray(0, r.offset);
    const codec = responseCodec(api, response.apiVersion);
    const body = codec.decode(r);
    change(body);
    const w = new Writer();
    codec.encode(w, body as never);
    return { replace: Buffer.concat([header, w.toBuffer()]) };
  };
}

/** The correlation id followed by `n` bytes of noise: a body no decoder can read. */
export function garbage(response: ResponseContext, random: () => number = Math.random, n = 2): { replace: Buffer } {
  const noise = Buffer.alloc(n);
  for (let i = 0; i < n; i++) noise[i] = Math.floor(random() * 256);
  return { replace: Buffer.concat([response.frame.subarray(0, 4), noise]) };
}

/** What an HTTP server answers a Kafka request with. */
export const HTTP_ANSWER = Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');

/** The API definition for a key, for rewriting responses of whatever kind the soak meets. */
export function apiByKey(key: number): ApiDef | undefined {
  return API_DEFINITIONS.find((a) => a.key === key);
}

export type CorruptionKind = 'flip' | 'garbage' | 'truncate-body' | 'extra-bytes' | 'huge-size' | 'duplicate';

export const CORRUPTION_KINDS: readonly CorruptionKind[] = [
  'flip',
  'garbage',
  'truncate-body',
  'extra-bytes',
  'huge-size',
  'duplicate',
];

/** One seeded corruption of a response frame (the frame is copied, never changed in place). */
export function corrupt(
  kind: CorruptionKind,
  response: ResponseContext,
  random: () => number,
): ReturnType<ResponseRewrite> {
  const frame = response.frame;
  switch (kind) {
    case 'flip': {
      // One to three bits anywhere after the correlation id: inside record batches the CRC catches them,
      // elsewhere they make impossible counts, offsets, sizes and error codes.
      const copy = Buffer.from(frame);
      const flips = 1 + Math.floor(random() * 3);
      for (let i = 0; i < flips && copy.length > 4; i++) {
        const at = 4 + Math.floor(random() * (copy.length - 4));
        copy[at] ^= 1 << Math.floor(random() * 8);
      }
      return { replace: copy };
    }
    case 'garbage':
      return garbage(response, random, Math.floor(random() * 64));
    case 'truncate-body':
      return { replace: frame.subarray(0, 4 + Math.floor(random() * Math.max(1, frame.length - 4))) };
    case 'extra-bytes':
      return { replace: Buffer.concat([frame, Buffer.from([0, 1, 2, 3])]) };
    case 'huge-size': {
      const raw = Buffer.alloc(8);
      raw.writeInt32BE(random() < 0.5 ? -7 : 0x7ffffff0, 0);
      return { replaceRaw: raw };
    }
    case 'duplicate': {
      const prefixed = Buffer.alloc(4 + frame.length);
      prefixed.writeInt32BE(frame.length, 0);
      frame.copy(prefixed, 4);
      return { replaceRaw: Buffer.concat([prefixed, prefixed]) };
    }
  }
}
