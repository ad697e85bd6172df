export { ApiVersions } from './apis/api-versions.js';
export { type MessageCodec, messageCodec, requestCodec, responseCodec } from './codec.js';
export { RequestHeader, ResponseHeader, requestHeaderVersion, responseHeaderVersion } from './headers.js';
export type { ApiDef, RequestInput, RequestOf, ResponseInput, ResponseOf } from './schema.js';
