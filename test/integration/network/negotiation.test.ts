import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { CreateTopics } from '../../../protocol/apis/create-topics.js';
import { DeleteTopics } from '../../../protocol/apis/delete-topics.js';
import { Metadata } from '../../../protocol/apis/metadata.js';
import { API_DEFINITIONS } from '../../../protocol/index.js';
import { parseBrokerAddress } from '../../../src/cluster/address.js';
import { clientVersions } from '../../../src/network/api-versions.js';
import { Connection } from '../../../src/network/connection.js';
import { UnsupportedVersionError } from '../../../src/network/errors.js';
import { bootstrap, legacyBootstrap } from '../../harness/context.js';

/**
 * What each broker generation advertises (observed: Kafka 4.4.0 and 3.9.1) and so what tidemark must pick.
 * 4.x dropped CreateTopics v0-1 and DeleteTopics v0 (KIP-896) and added Metadata v13 and ApiVersions v5.
 */
const generations = [
  {
    label: 'Kafka 4.x',
    address: bootstrap(),
    advertised: { ApiVersions: [0, 5], Metadata: [0, 13], CreateTopics: [2, 7], DeleteTopics: [1, 6] },
    negotiated: { ApiVersions: 4, Metadata: 13, CreateTopics: 7, DeleteTopics: 6 },
    lacks: [
      [CreateTopics, 1],
      [DeleteTopics, 0],
    ] as const,
  },
  {
    label: 'Kafka 3.9',
    address: legacyBootstrap(),
    advertised: { ApiVersions: [0, 4], Metadata: [0, 12], CreateTopics: [0, 7], DeleteTopics: [0, 6] },
    negotiated: { ApiVersions: 4, Metadata: 12, CreateTopics: 7, DeleteTopics: 6 },
    lacks: [[Metadata, 13]] as const,
  },
];

const apis = { ApiVersions, Metadata, CreateTopics, DeleteTopics };

describe.each(generations)('negotiation with $label', ({ address, advertised, negotiated, lacks }) => {
  let conn: Connection;

  beforeAll(async () => {
    if (address === null) return;
    conn = new Connection({ ...parseBrokerAddress(address), clientId: 'tidemark-it' });
    await conn.connect();
  });
  afterAll(() => conn?.close());

  it.skipIf(address === null)('accepts ApiVersions v4 with the client software named', () => {
    expect(conn.apiVersions?.negotiatedWith).toBe(4);
  });

  it.skipIf(address === null)('sees the advertised ranges and picks the highest common version', () => {
    for (const [name, [min, max]] of Object.entries(advertised)) {
      const api = apis[name as keyof typeof apis];
      expect(conn.apiVersions?.range(api.key), name).toEqual({ min, max });
      expect(conn.versionFor(api), name).toBe(negotiated[name as keyof typeof negotiated]);
    }
  });

  it.skipIf(address === null)('picks min(ours, theirs) for every API tidemark defines', () => {
    for (const api of API_DEFINITIONS) {
      const ours = clientVersions(api);
      const theirs = conn.apiVersions?.range(api.key);
      const shared = theirs !== undefined && Math.max(ours.min, theirs.min) <= Math.min(ours.max, theirs.max);
      if (shared) expect(conn.versionFor(api), api.name).toBe(Math.min(ours.max, theirs.max));
      else expect(() => conn.versionFor(api), api.name).toThrow(UnsupportedVersionError);
    }
  });

  it.skipIf(address === null)('refuses a forced version the broker lacks, naming both ranges', async () => {
    for (const [api, version] of lacks) {
      const err = await conn.request(api as typeof Metadata, {}, { version }).catch((e) => e);
      expect(err, `${api.name} v${version}`).toBeInstanceOf(UnsupportedVersionError);
      expect(err.requestedVersion).toBe(version);
      expect(err.broker).toEqual(conn.apiVersions?.range(api.key));
      expect(err.client).toEqual(clientVersions(api));
    }
    expect(conn.isReady).toBe(true);
  });

  it.skipIf(address === null)('answers ApiVersions at every version both sides speak', async () => {
    const range = conn.apiVersions!.range(ApiVersions.key)!;
    for (let v = range.min; v <= Math.min(range.max, clientVersions(ApiVersions).max); v++) {
      const body = v >= 3 ? { clientSoftwareName: 'tidemark', clientSoftwareVersion: '0.1.0' } : {};
      const res = await conn.request(ApiVersions, body, { version: v });
      expect(res.errorCode, `v${v}`).toBe(0);
      expect(
        res.apiKeys.find((k) => k.apiKey === Metadata.key),
        `v${v}`,
      ).toEqual({
        apiKey: Metadata.key,
        minVersion: advertised.Metadata[0],
        maxVersion: advertised.Metadata[1],
      });
    }
  });

  it.skipIf(address === null)('pipelines many requests on one connection', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => conn.request(Metadata, { topics: [], allowAutoTopicCreation: false })),
    );
    expect(responses).toHaveLength(200);
    for (const r of responses) expect(r.brokers.length).toBeGreaterThan(0);
    expect(conn.pendingRequests).toBe(0);
  });
});
