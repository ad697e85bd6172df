import { ApiVersions } from './apis/api-versions.js';
import type { ApiDef } from './schema.js';

export { ApiVersions } from './apis/api-versions.js';
export { type MessageCodec, messageCodec, requestCodec, responseCodec } from './codec.js';
export { RequestHeader, ResponseHeader, requestHeaderVersion, responseHeaderVersion } from './headers.js';
export type { ApiDef, RequestInput, RequestOf, ResponseInput, ResponseOf } from './schema.js';

/** Every API tidemark defines; conformance checks each against Kafka. */
export const API_DEFINITIONS: readonly ApiDef[] = [ApiVersions];
