import type { ApiDef } from './schema.js';
import { field, type MessageDef } from './schema.js';
import { inRange } from './versions.js';

/** Precedes every request body. v2 is used with flexible API versions. */
export const RequestHeader = {
  name: 'RequestHeader',
  validVersions: '1-2',
  flexibleVersions: '2+',
  fields: [
    field('requestApiKey', 'int16', '0+', { doc: 'Key of the API this request calls (e.g. 1 for Fetch).' }),
    field('requestApiVersion', 'int16', '0+', { doc: 'Version of that API the request body is encoded in.' }),
    field('correlationId', 'int32', '0+', { doc: 'Number the client picks to match the response to this request.' }),
    // Kept as a classic (int16-length) string even in the flexible header,
    // so that a broker can read it before knowing the header version.
    field('clientId', 'string', '1+', {
      doc: 'Client name the broker logs and applies quotas to; null for none.',
      nullable: '1+',
      flexibleVersions: 'none',
    }),
  ],
} as const satisfies MessageDef;

/** Precedes every response body. v1 is used with flexible API versions. */
export const ResponseHeader = {
  name: 'ResponseHeader',
  validVersions: '0-1',
  flexibleVersions: '1+',
  fields: [field('correlationId', 'int32', '0+', { doc: 'Correlation id of the request this response answers.' })],
} as const satisfies MessageDef;

const API_VERSIONS_KEY = 18;

export function requestHeaderVersion(api: ApiDef, version: number): number {
  return inRange(api.request.flexibleVersions, version) ? 2 : 1;
}

export function responseHeaderVersion(api: ApiDef, version: number): number {
  // ApiVersions responses always use header v0: a client that sent a version
  // the broker does not know must still be able to read the answer.
  if (api.key === API_VERSIONS_KEY) return 0;
  return inRange(api.response.flexibleVersions, version) ? 1 : 0;
}
