import { Reader } from '../../codecs/reader.js';
import { Writer } from '../../codecs/writer.js';
import { messageCodec, requestCodec } from '../../protocol/codec.js';
import { RequestHeader, requestHeaderVersion } from '../../protocol/headers.js';
import type { ApiDef, RequestInput } from '../../protocol/schema.js';

/**
 * One request as the chunks of a single vectored write: the 4-byte size, then header and body as the Writer
 * produced them (large byte arrays linked, not copied). Throws ProtocolError before anything is written if the
 * body does not fit the version.
 */
export function encodeRequest(
  api: ApiDef,
  version: number,
  correlationId: number,
  clientId: string | null,
  body: unknown,
): Buffer[] {
  const w = new Writer();
  messageCodec(RequestHeader, requestHeaderVersion(api, version)).encode(w, {
    requestApiKey: api.key,
    requestApiVersion: version,
    correlationId,
    clientId,
  });
  requestCodec(api, version).encode(w, body as RequestInput<ApiDef>);
  const sizePrefix = Buffer.allocUnsafe(4);
  sizePrefix.writeInt32BE(w.length, 0);
  return [sizePrefix, ...w.chunks()];
}

/**
 * Decodes a response frame whose correlation id (its first 4 bytes) has already been matched. Bytes left over
 * after the body mean the definition and the broker disagree, so they fail the request rather than pass unseen.
 */
export function decodeResponse(frame: Buffer, headerVersion: number, decodeBody: (r: Reader) => unknown): unknown {
  const r = new Reader(frame, 4);
  if (headerVersion >= 1) r.taggedFields();
  const value = decodeBody(r);
  if (r.remaining !== 0) r.fail(`${r.remaining} bytes left over after the response body`);
  return value;
}
