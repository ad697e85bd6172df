/**
 * Differential, admin: the same calls on kafkajs 2.2.4 and on tidemark/kafkajs against the same broker, with
 * equal results: describeConfigs (with synonyms, per-resource config names), alterConfigs and its refusal,
 * describeCluster, deleteTopicRecords, the partition reassignment calls and their refusal, on the shared 4.4 and
 * 3.9 brokers; createAcls, describeAcls and deleteAcls on authorizer-enabled 4.4 and 3.9 brokers.
 */
import { randomUUID } from 'node:crypto';
import * as kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as facade from '../../../src/kafkajs/index.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { eventually } from '../../harness/eventually.js';
import { DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION } from '../../harness/versions.js';
import { type AuthzBroker, startAuthzBroker } from '../admin-security/authz-broker.js';

type Module = typeof facade;
type FacadeAdmin = ReturnType<InstanceType<Module['Kafka']>['admin']>;
const modules = [
  ['kafkajs', kafkajs as unknown as Module],
  ['tidemark/kafkajs', facade],
] as const;

/** What a rejected call shows a program: kafkajs's error name, type, retriability, and its inner errors'. */
async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (e) {
    const err = e as { name: string; type?: unknown; retriable?: unknown; errors?: unknown[] };
    return {
      name: err.name,
      type: err.type,
      retriable: err.retriable,
      errors: (err.errors ?? []).map((x) => {
        const inner = x as { name: string; type?: unknown; topic?: unknown; partition?: unknown };
        return { name: inner.name, type: inner.type, partition: inner.partition };
      }),
    };
  }
  return 'resolved';
}

async function withAdmin<T>(mod: Module, broker: string, run: (admin: FacadeAdmin) => Promise<T>): Promise<T> {
  const kafka = new mod.Kafka({ clientId: 'admin-differential', brokers: [broker], logLevel: mod.logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.disconnect();
  }
}

/** Configs, cluster, records and reassignments on one broker, topic names replaced by T. */
async function configsScenario(mod: Module, broker: string) {
  const topic = uniqueTopicName('kjs-admin');
  const { ConfigResourceTypes } = mod;
  const observed = await withAdmin(mod, broker, async (admin) => {
    await admin.createTopics({
      topics: [{ topic, numPartitions: 2, configEntries: [{ name: 'cleanup.policy', value: 'compact,delete' }] }],
    });
    const cluster = await admin.describeCluster();
    const brokerId = String(cluster.brokers[0].nodeId);
    const described = await admin.describeConfigs({
      includeSynonyms: true,
      resources: [
        { type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['cleanup.policy', 'retention.ms'] },
        { type: ConfigResourceTypes.BROKER, name: brokerId, configNames: ['log.retention.hours', 'num.io.threads'] },
      ],
    });
    const altered = await admin.alterConfigs({
      resources: [
        { type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: 'retention.ms', value: '3600000' }] },
      ],
    });
    const afterAlter = await eventually(async () => {
      const d = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['retention.ms', 'cleanup.policy'] }],
      });
      expect(d.resources[0].configEntries.find((e) => e.configName === 'retention.ms')?.configValue).toBe('3600000');
      return d;
    });
    const invalidValue = await failureOf(
      admin.alterConfigs({
        resources: [
          { type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: 'retention.ms', value: 'soon' }] },
        ],
      }),
    );
    const unknownTopic = await failureOf(
      admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: `${topic}-none` }],
      }),
    );
    const badType = await failureOf(
      admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 99 as never, name: topic }] }),
    );

    const kafka = new mod.Kafka({ clientId: 'admin-differential', brokers: [broker], logLevel: mod.logLevel.NOTHING });
    const p = kafka.producer();
    await p.connect();
    await p.send({ topic, messages: Array.from({ length: 5 }, (_, i) => ({ partition: 0, value: `v${i}` })) });
    await p.disconnect();
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '3' }] });
    // kafkajs lists partitions in the broker's answer order, the facade by partition: compare sorted.
    const offsetsAfterDelete = (await admin.fetchTopicOffsets(topic)).sort((a, b) => a.partition - b.partition);

    const reassignments = await admin.listPartitionReassignments({});
    const reassignmentsOfTopic = await admin.listPartitionReassignments({ topics: [{ topic, partitions: [0, 1] }] });
    const moveToNowhere = await failureOf(
      admin.alterPartitionReassignments({
        topics: [{ topic, partitionAssignment: [{ partition: 0, replicas: [4242] }] }],
      }),
    );
    await admin.deleteTopics({ topics: [topic] });
    return {
      cluster,
      described,
      altered,
      afterAlter,
      invalidValue,
      unknownTopic,
      badType,
      offsetsAfterDelete,
      reassignments,
      reassignmentsOfTopic,
      moveToNowhere,
    };
  });
  return JSON.parse(JSON.stringify(observed).replaceAll(topic, 'T'));
}

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

describe.each(generations)('admin configs, cluster, records and reassignments on $label', ({ address }) => {
  it.skipIf(address === null)(
    'kafkajs and tidemark/kafkajs observe the same results',
    { timeout: 120_000 },
    async () => {
      const [original, ours] = [
        await configsScenario(modules[0][1], address as string),
        await configsScenario(modules[1][1], address as string),
      ];
      // The scenario itself says something: the values kafkajs saw are the ones the calls were meant to produce.
      expect(original.described.resources[0].configEntries[0]).toMatchObject({
        configName: 'cleanup.policy',
        configValue: 'compact,delete',
      });
      expect(original.offsetsAfterDelete.find((o: { partition: number }) => o.partition === 0)).toMatchObject({
        low: '3',
        high: '5',
      });
      expect(original.moveToNowhere).not.toBe('resolved');
      for (const key of Object.keys(original)) expect.soft({ [key]: ours[key] }).toEqual({ [key]: original[key] });
    },
  );
});

for (const kafkaVersion of [DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION]) {
  describe(`admin ACLs on an authorizer-enabled ${kafkaVersion} broker`, () => {
    let broker: AuthzBroker;
    beforeAll(async () => {
      broker = await startAuthzBroker(kafkaVersion);
    }, 240_000);
    afterAll(async () => {
      await broker?.stop();
    });

    /** Create, list, delete and list again the bindings of a principal of its own (PLAINTEXT is a super user). */
    async function aclScenario(mod: Module) {
      const { AclResourceTypes: R, AclOperationTypes: O, AclPermissionTypes: P, ResourcePatternTypes: T } = mod;
      const principal = `User:kjs-${randomUUID().slice(0, 8)}`;
      const acl = [
        {
          resourceType: R.TOPIC,
          resourceName: 'orders',
          resourcePatternType: T.LITERAL,
          principal,
          host: '*',
          operation: O.READ,
          permissionType: P.ALLOW,
        },
        {
          resourceType: R.TOPIC,
          resourceName: 'orders',
          resourcePatternType: T.LITERAL,
          principal,
          host: '*',
          operation: O.WRITE,
          permissionType: P.ALLOW,
        },
        {
          resourceType: R.GROUP,
          resourceName: 'billing-',
          resourcePatternType: T.PREFIXED,
          principal,
          host: '*',
          operation: O.READ,
          permissionType: P.DENY,
        },
        {
          resourceType: R.CLUSTER,
          resourceName: 'kafka-cluster',
          resourcePatternType: T.LITERAL,
          principal,
          host: '10.0.0.1',
          operation: O.IDEMPOTENT_WRITE,
          permissionType: P.ALLOW,
        },
      ];
      const any = {
        resourceType: R.ANY,
        resourcePatternType: T.ANY,
        operation: O.ANY,
        permissionType: P.ANY,
        principal,
      };
      const observed = await withAdmin(mod, broker.bootstrap, async (admin) => {
        const created = await admin.createAcls({ acl });
        const listed = await eventually(async () => {
          const d = await admin.describeAcls(any);
          expect(d.resources.flatMap((r) => r.acls)).toHaveLength(4);
          return d;
        });
        const topicsOnly = await admin.describeAcls({ ...any, resourceType: R.TOPIC });
        const deleted = await admin.deleteAcls({
          filters: [
            { ...any, resourceType: R.TOPIC, operation: O.WRITE },
            { ...any, resourceType: R.GROUP },
          ],
        });
        const deletedRest = await admin.deleteAcls({ filters: [any] });
        const afterDelete = await eventually(async () => {
          const d = await admin.describeAcls(any);
          expect(d.resources).toEqual([]);
          return d;
        });
        const invalid = await failureOf(admin.createAcls({ acl: [{ ...acl[0], operation: 99 as never }] }));
        return { created, listed, topicsOnly, deleted, deletedRest, afterDelete, invalid };
      });
      return JSON.parse(JSON.stringify(observed).replaceAll(principal, 'User:P'));
    }

    /** The broker lists resources and bindings in no fixed order: compare as sorted lists. */
    const sortedDeep = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sortedDeep).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sortedDeep(v)]))
          : value;

    it('kafkajs and tidemark/kafkajs observe the same results', { timeout: 120_000 }, async () => {
      const original = await aclScenario(modules[0][1]);
      const ours = await aclScenario(modules[1][1]);
      expect(original.created).toBe(true);
      expect(original.deleted.filterResponses.map((f: { matchingAcls: unknown[] }) => f.matchingAcls.length)).toEqual([
        1, 1,
      ]);
      for (const key of Object.keys(original)) {
        expect.soft({ [key]: sortedDeep(ours[key]) }).toEqual({ [key]: sortedDeep(original[key]) });
      }
    });
  });
}
