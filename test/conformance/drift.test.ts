import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiVersions } from '../../protocol/apis/api-versions.js';
import { RequestHeader } from '../../protocol/headers.js';
import type { ApiDef, Field, FieldType } from '../../protocol/schema.js';
import type { Mismatch } from './mismatch.js';
import { apiTarget, ConformanceSession } from './run.js';

/** The checker must catch drift: deliberately wrong copies of a definition produce mismatches. */

/** A copy of `fields` with `change` applied to the field at `path` (dotted, through structs and arrays). */
function alter(fields: readonly Field[], path: string, change: Partial<Field>): Field[] {
  const [head, ...rest] = path.split('.');
  return fields.map((f) => {
    if (f.name !== head) return f;
    if (rest.length === 0) return { ...f, ...change };
    const inner = (t: FieldType): FieldType => {
      if (typeof t !== 'object') throw new Error(`${head} has no fields`);
      if (t.kind === 'array') return { ...t, of: inner(t.of) };
      return { ...t, fields: alter(t.fields, rest.join('.'), change) };
    };
    return { ...f, type: inner(f.type) };
  });
}

function withResponse(path: string, change: Partial<Field>, extra: Partial<ApiDef['response']> = {}): ApiDef {
  const r = ApiVersions.response;
  return { ...ApiVersions, response: { ...r, ...extra, fields: alter(r.fields, path, change) } };
}

const summary = (ms: Mismatch[]) => ms.map((m) => `${m.kind} ${m.message} v${m.version} ${m.path}: ${m.what}`);

let session: ConformanceSession | undefined;

beforeAll(async () => {
  session = await ConformanceSession.open({ seed: 7, messages: 3 });
});

afterAll(() => session?.close());

describe('the conformance check catches a drifted definition', () => {
  it('passes the real ApiVersions (the control)', async () => {
    const r = await session!.check(apiTarget(ApiVersions));
    expect(summary(r.mismatches.filter((m) => m.message === 'ApiVersionsResponse'))).toEqual([]);
  });

  it('reports a field whose version range is wrong, in the schema and in the bytes', async () => {
    const r = await session!.check(apiTarget(withResponse('throttleTimeMs', { versions: '2+' })));
    const v1 = summary(r.mismatches.filter((m) => m.version === 1));
    expect(v1).toContainEqual(
      'schema ApiVersionsResponse v1 throttleTimeMs: not present in this version: Kafka has it in versions 1+, tidemark in 2+',
    );
    expect(v1).toContainEqual(expect.stringMatching(/^bytes ApiVersionsResponse v1 .*encode: Kafka cannot encode/));
    expect(r.mismatches.filter((m) => m.version === 2)).toEqual([]);
  });

  it('reports a wrong type inside a structure, in the schema and in the bytes', async () => {
    const r = await session!.check(apiTarget(withResponse('apiKeys.apiKey', { type: 'int32' })));
    const found = summary(r.mismatches);
    expect(found).toContainEqual('schema ApiVersionsResponse v0 apiKeys.apiKey: type: Kafka int16, tidemark int32');
    expect(found).toContainEqual(expect.stringMatching(/^bytes ApiVersionsResponse v0 .*(encode|decode): /));
  });

  it('reports wrong nullability, tags and defaults', async () => {
    let r = await session!.check(apiTarget(withResponse('finalizedFeaturesEpoch', { default: 0n, tag: 5 })));
    const found = summary(r.mismatches.filter((m) => m.kind === 'schema'));
    expect(found).toContainEqual('schema ApiVersionsResponse v3 finalizedFeaturesEpoch: tag: Kafka 1, tidemark 5');
    expect(found).toContainEqual('schema ApiVersionsResponse v3 finalizedFeaturesEpoch: default: Kafka -1, tidemark 0');
    r = await session!.check(apiTarget(withResponse('apiKeys', { nullable: '0+' })));
    expect(summary(r.mismatches)).toContainEqual(
      expect.stringMatching(/^schema ApiVersionsResponse v0 apiKeys: nullable/),
    );
  });

  it('reports versions Kafka does not serve and a wrong flexible range', async () => {
    const r = await session!.check(
      apiTarget(withResponse('errorCode', {}, { validVersions: '0-9', flexibleVersions: '2+' })),
    );
    const found = summary(r.mismatches.filter((m) => m.kind === 'schema'));
    expect(found).toContainEqual(expect.stringMatching(/^schema ApiVersionsResponse v9 : version 9 is not served/));
    expect(found).toContainEqual(expect.stringMatching(/^schema ApiVersionsResponse v2 : flexible: Kafka false/));
  });

  it('reports a field-level flexibleVersions override that went missing (RequestHeader.clientId)', async () => {
    const fields = alter(RequestHeader.fields, 'clientId', { flexibleVersions: undefined });
    const r = await session!.check({ name: 'RequestHeader', messages: [{ ...RequestHeader, fields }] });
    const found = summary(r.mismatches);
    expect(found).toContainEqual(
      expect.stringMatching(/^schema RequestHeader v2 clientId: flexible encoding: Kafka false/),
    );
    expect(found).toContainEqual(expect.stringMatching(/^bytes RequestHeader v2 .*encode: bytes differ/));
    expect(r.mismatches.filter((m) => m.version === 1)).toEqual([]);
  });

  it('reports fields out of order and a renamed structure', async () => {
    const r0 = ApiVersions.response;
    const [errorCode, apiKeys, ...rest] = r0.fields;
    let r = await session!.check(
      apiTarget({ ...ApiVersions, response: { ...r0, fields: [apiKeys, errorCode, ...rest] } }),
    );
    expect(summary(r.mismatches)).toContainEqual(
      'schema ApiVersionsResponse v0 : field order: Kafka errorCode, apiKeys; tidemark apiKeys, errorCode',
    );
    const t = apiKeys.type as Extract<FieldType, { kind: 'array' }>;
    const renamed = { ...apiKeys, type: { ...t, of: { ...(t.of as object), name: 'ApiKey' } } } as Field;
    r = await session!.check(apiTarget({ ...ApiVersions, response: { ...r0, fields: [errorCode, renamed, ...rest] } }));
    expect(summary(r.mismatches)).toContainEqual(
      'schema ApiVersionsResponse v0 apiKeys: type: Kafka []ApiVersion, tidemark []ApiKey',
    );
  });
});
