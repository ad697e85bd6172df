import { ApiVersions } from './apis/api-versions.js';
import { CreateTopics } from './apis/create-topics.js';
import { DeleteTopics } from './apis/delete-topics.js';
import { Metadata } from './apis/metadata.js';
import type { ApiDef } from './schema.js';

export { ApiVersions } from './apis/api-versions.js';
export { CreateTopics } from './apis/create-topics.js';
export { DeleteTopics } from './apis/delete-topics.js';
export { Metadata } from './apis/metadata.js';
export { type MessageCodec, messageCodec, requestCodec, responseCodec } from './codec.js';
export { RequestHeader, ResponseHeader, requestHeaderVersion, responseHeaderVersion } from './headers.js';
export type { ApiDef, RequestInput, RequestOf, ResponseInput, ResponseOf } from './schema.js';

/** Every API tidemark defines; conformance checks each against Kafka. */
export const API_DEFINITIONS: readonly ApiDef[] = [ApiVersions, Metadata, CreateTopics, DeleteTopics];
