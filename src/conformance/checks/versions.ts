/**
 * Versions: the broker's ApiVersions ranges against the nearest Apache Kafka release's, a minimal valid request
 * at every version of every API both sides define (each answer must decode completely: no bytes left over,
 * tagged fields well formed; APIs that change state are left out, each with its reason in NOT_SWEPT), and the
 * finalized features KRaft brokers send.
 */
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { API_DEFINITIONS } from '../../../protocol/index.js';
import type { ApiDef } from '../../../protocol/schema.js';
import { clientVersions } from '../../network/api-versions.js';
import type { Connection } from '../../network/connection.js';
import { ConnectionError } from '../../network/errors.js';
import { compareRanges, nearestRelease } from '../known-versions.js';
import type { Probe } from '../probe.js';
import type { Check } from '../types.js';

/** Bodies for the sweep where "every field at its default" would not be a request a client sends. */
const MINIMAL: Record<string, Record<string, unknown> | ((version: number) => Record<string, unknown>)> = {
  Produce: { acks: -1, timeoutMs: 1000, topicData: [] },
  Fetch: { replicaId: -1, maxWaitMs: 0, minBytes: 0, topics: [], forgottenTopicsData: [] },
  ListOffsets: { replicaId: -1, topics: [] },
  Metadata: { topics: [] },
  // Kafka 3.9 never answers an OffsetFetch v8+ that names no group, so the sweep names one.
  OffsetFetch: (v) =>
    v >= 8 ? { groups: [{ groupId: 'tidemark-conformance-sweep', topics: null }] } : { groupId: 'x', topics: [] },
  ApiVersions: { clientSoftwareName: 'tidemark-conformance', clientSoftwareVersion: '1' },
  CreateTopics: { topics: [], timeoutMs: 1000 },
  DeleteTopics: { topics: [], topicNames: [], timeoutMs: 1000 },
  DeleteRecords: { topics: [], timeoutMs: 1000 },
  InitProducerId: { transactionalId: null, transactionTimeoutMs: 60_000, producerId: -1n, producerEpoch: -1 },
  OffsetForLeaderEpoch: { replicaId: -1, topics: [] },
  JoinGroup: {
    groupId: 'tidemark-conformance-sweep',
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 10_000,
    protocolType: 'consumer',
    protocols: [],
  },
  SaslHandshake: { mechanism: 'PLAIN' },
  SaslAuthenticate: { authBytes: Buffer.alloc(0) },
  FindCoordinator: (v) =>
    v >= 4 ? { keyType: 0, coordinatorKeys: [] } : { key: 'tidemark-conformance-sweep', keyType: 0 },
  ConsumerGroupHeartbeat: { groupId: '', memberId: '', memberEpoch: 0 },
  // Read-only describes and lists: asking about nothing (or about everything) changes nothing.
  DescribeTransactions: { transactionalIds: [] },
  ListTransactions: { stateFilters: [], producerIdFilters: [] },
  DescribeConfigs: { resources: [] },
  DescribeLogDirs: { topics: [] },
  ListPartitionReassignments: { timeoutMs: 1000, topics: [] },
  DescribeCluster: {},
  ConsumerGroupDescribe: { groupIds: [] },
  // ANY (1) for every enumeration: the default 0 is UNKNOWN, which a broker refuses. v0 has no pattern type
  // (it matches LITERAL only).
  DescribeAcls: (v) => ({
    resourceTypeFilter: 1,
    resourceNameFilter: null,
    ...(v >= 1 ? { patternTypeFilter: 1 } : {}),
    principalFilter: null,
    hostFilter: null,
    operation: 1,
    permissionType: 1,
  }),
  DescribeClientQuotas: { components: [], strict: false },
  DescribeUserScramCredentials: { users: [] },
  DescribeTopicPartitions: { topics: [], responsePartitionLimit: 1 },
};

const TRANSACTIONAL = 'changes a transaction; the transaction checks send it at v3';
const MUTATING = 'changes cluster state; the admin integration tests cover it';

/** APIs the sweep does not send, each with its reason: a request to them changes state. */
const NOT_SWEPT: Record<string, string> = {
  AddPartitionsToTxn: TRANSACTIONAL,
  AddOffsetsToTxn: TRANSACTIONAL,
  EndTxn: TRANSACTIONAL,
  TxnOffsetCommit: TRANSACTIONAL,
  DeleteGroups: MUTATING,
  OffsetDelete: MUTATING,
  AlterConfigs: MUTATING,
  IncrementalAlterConfigs: MUTATING,
  CreatePartitions: MUTATING,
  ElectLeaders: MUTATING,
  AlterPartitionReassignments: MUTATING,
  CreateAcls: MUTATING,
  DeleteAcls: MUTATING,
  AlterClientQuotas: MUTATING,
  AlterUserScramCredentials: MUTATING,
};

function minimalBody(api: ApiDef, version: number): Record<string, unknown> {
  const body = MINIMAL[api.name] ?? {};
  return typeof body === 'function' ? body(version) : body;
}

/**
 * Versions Kafka advertises but refuses (it closes the connection): Produce v0-2 on 4.x stay in ApiVersions only
 * so that old librdkafka releases keep working (KAFKA-18659).
 */
function advertisedOnly(api: ApiDef, version: number, release: string): boolean {
  return api.name === 'Produce' && version <= 2 && release.startsWith('4.');
}

/** Versions of `api` both tidemark and the broker speak. */
function sharedVersions(api: ApiDef, connection: Connection): number[] {
  const theirs = connection.apiVersions?.range(api.key);
  if (theirs === undefined) return [];
  const ours = clientVersions(api);
  const out: number[] = [];
  for (let v = Math.max(ours.min, theirs.min); v <= Math.min(ours.max, theirs.max); v++) out.push(v);
  return out;
}

export const versionChecks: Check[] = [
  {
    id: 'versions.ranges',
    area: 'versions',
    expected: 'ApiVersions offers at least the version ranges of the nearest Apache Kafka release (3.9 or 4.4)',
    spec: 'KIP-511; Kafka protocol guide, "Versioning and Compatibility"',
    async run(probe: Probe) {
      const connection = await probe.suite.any();
      const response = await probe.send(connection, ApiVersions, minimalBody(ApiVersions, 3) as never);
      probe.errorCode(response.errorCode, 0, 'ApiVersions');
      const broker = new Map(response.apiKeys.map((k) => [k.apiKey, { min: k.minVersion, max: k.maxVersion }]));
      const { release } = nearestRelease({ range: (key) => broker.get(key) });
      const { missing, extra } = compareRanges(broker, release);
      const extras =
        extra.length === 0 ? '' : `; beyond Kafka: ${extra.slice(0, 4).join(', ')}${extra.length > 4 ? '…' : ''}`;
      if (missing.length > 0) {
        probe.fail(
          `nearest release ${release}; missing: ${missing.slice(0, 4).join(', ')}${missing.length > 4 ? ` (+${missing.length - 4})` : ''}${extras}`,
        );
      }
      return `matches Kafka ${release} (${broker.size} APIs)${extras}`;
    },
  },
  {
    id: 'versions.every-version-decodes',
    area: 'versions',
    expected:
      'every advertised version of every API tidemark defines answers a minimal valid request, and the answer decodes with no bytes left over',
    spec: 'Kafka protocol guide, "The Protocol" message framing; KIP-482 tagged fields',
    async run(probe: Probe) {
      let connection = await probe.suite.dedicatedConnection();
      const { release } = nearestRelease(probe.suite.versions);
      const problems: string[] = [];
      const left: string[] = [];
      let sent = 0;
      try {
        for (const api of API_DEFINITIONS) {
          if (NOT_SWEPT[api.name] !== undefined) continue;
          for (const version of sharedVersions(api, connection)) {
            if (advertisedOnly(api, version, release)) {
              left.push(`${api.name} v${version}`);
              continue;
            }
            sent++;
            const body = minimalBody(api, version);
            try {
              await connection.request(api, body as never, { version, timeoutMs: 10_000 });
            } catch (err) {
              problems.push(`${api.name} v${version}: ${(err as Error).message}`);
              probe.note({ api: api.name, version, request: body, outcome: (err as Error).message });
              if (err instanceof ConnectionError || connection.isClosed) {
                await connection.close().catch(() => {});
                connection = await probe.suite.dedicatedConnection();
              }
            }
          }
        }
      } finally {
        await connection.close().catch(() => {});
      }
      if (problems.length > 0) probe.fail(`${problems.length} of ${sent} failed; first: ${problems[0]}`);
      const note =
        left.length === 0 ? '' : ` (not sent: ${left.join(', ')}, which Kafka ${release} advertises but refuses)`;
      const unswept = Object.keys(NOT_SWEPT).length;
      return `${sent} API versions answered and decoded completely${note}; ${unswept} state-changing APIs not swept`;
    },
  },
  {
    id: 'versions.finalized-features',
    area: 'versions',
    expected: 'ApiVersions v3+ carries the finalized features (tagged fields 1 and 2), metadata.version among them',
    spec: 'KIP-584; KIP-778',
    async run(probe: Probe) {
      const connection = await probe.suite.any();
      const version = probe.requireVersion(ApiVersions, 3, 'feature flags');
      const response = await probe.send(connection, ApiVersions, minimalBody(ApiVersions, 3) as never, { version });
      probe.errorCode(response.errorCode, 0, 'ApiVersions');
      const names = response.finalizedFeatures.map((f) => f.name);
      probe.expect(
        names.includes('metadata.version'),
        `finalizedFeatures (tag 2): Kafka lists metadata.version, the broker sent ${names.length === 0 ? 'none' : names.join(', ')}`,
      );
      probe.expect(
        response.finalizedFeaturesEpoch >= 0n,
        `finalizedFeaturesEpoch (tag 1) is ${response.finalizedFeaturesEpoch}`,
      );
      return `finalized: ${names.join(', ')}`;
    },
  },
];
