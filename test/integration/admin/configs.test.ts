import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKafkaError, type KafkaError } from '../../../protocol/kafka-error.js';
import type { ConfigResource } from '../../../src/admin/config-resource.js';
import { ResourceErrors } from '../../../src/admin/resource-errors.js';
import type { Client } from '../../../src/client.js';
import { uniqueTopicName } from '../../harness/context.js';
import { eventually } from '../../harness/eventually.js';
import { type JavaFailure, useJavaAdmin } from './java-admin.js';
import { brokerId, byName, newClient, newTopic, TARGETS } from './setup.js';

const javaAdmin = useJavaAdmin();

/** One config as Java's AdminClient reports it. */
type JavaConfig = { name: string; value: string | null; source: string };

describe.each(TARGETS)('configs against $label', ({ at, legacy }) => {
  let client: Client;
  let topic: string;
  let broker: string;

  beforeAll(async () => {
    client = newClient(at());
    topic = await newTopic(client, 'configs', 1, { 'retention.ms': '123456', 'cleanup.policy': 'delete' });
    broker = await brokerId(client);
  });
  afterAll(async () => {
    await client?.close();
  });

  /** tidemark's and Java's describeConfigs of the same resources, with synonyms and documentation. */
  async function both(resources: ConfigResource[]) {
    const options = { includeSynonyms: true, includeDocumentation: true };
    const ours = await client.admin.describeConfigs(resources, options);
    const theirs = await javaAdmin().call<{ resource: ConfigResource; configs: { name: string }[] }[]>(
      at(),
      'describeConfigs',
      { resources, ...options },
    );
    return { ours, theirs };
  }

  it("describes a topic's configs exactly as Java's AdminClient does (sources, synonyms, types, documentation)", async () => {
    const { ours, theirs } = await both([{ type: 'topic', name: topic }]);
    expect(ours).toHaveLength(1);
    expect(byName(ours[0].configs)).toEqual(byName(theirs[0].configs));
    const retention = ours[0].configs.find((c) => c.name === 'retention.ms');
    expect(retention).toMatchObject({
      value: '123456',
      source: 'DYNAMIC_TOPIC_CONFIG',
      type: 'LONG',
      isDefault: false,
    });
    expect(retention?.synonyms[0]).toEqual({ name: 'retention.ms', value: '123456', source: 'DYNAMIC_TOPIC_CONFIG' });
    expect(retention?.documentation).toMatch(/retain/);
    expect(ours[0].configs.length).toBeGreaterThan(20);
  });

  it('describes broker and broker-logger configs as Java does; sensitive values are masked (null)', async () => {
    const { ours, theirs } = await both([
      { type: 'broker', name: broker },
      { type: 'broker-logger', name: broker },
    ]);
    expect(byName(ours[0].configs)).toEqual(byName(theirs[0].configs));
    expect(byName(ours[1].configs)).toEqual(byName(theirs[1].configs));
    const sensitive = ours[0].configs.filter((c) => c.isSensitive);
    expect(sensitive.length).toBeGreaterThan(0);
    for (const c of sensitive) expect(c.value).toBeNull();
    expect(ours[1].configs.some((c) => c.name === 'root')).toBe(true);
  });

  it.skipIf(legacy)('describes group configs (Kafka 4.x) as Java does', async () => {
    const group = uniqueTopicName('admin-group-configs');
    await client.admin.incrementalAlterConfigs([
      {
        resource: { type: 'group', name: group },
        changes: [{ name: 'consumer.session.timeout.ms', op: 'set', value: '50000' }],
      },
    ]);
    // Read back from the broker's own replay of the metadata log, a moment after it answered the change.
    await eventually(async () => {
      const { ours, theirs } = await both([{ type: 'group', name: group }]);
      expect(byName(ours[0].configs)).toEqual(byName(theirs[0].configs));
      expect(ours[0].configs.find((c) => c.name === 'consumer.session.timeout.ms')).toMatchObject({
        value: '50000',
        source: 'DYNAMIC_GROUP_CONFIG',
      });
    });
  });

  it('sets, appends, subtracts and deletes single entries; Java sees the result', async () => {
    const resource: ConfigResource = { type: 'topic', name: topic };
    await client.admin.incrementalAlterConfigs([
      {
        resource,
        changes: [
          { name: 'max.message.bytes', op: 'set', value: '200000' },
          { name: 'cleanup.policy', op: 'append', value: 'compact' },
        ],
      },
    ]);
    // Java reads from the broker's own replay of the metadata log, a moment after the broker answered the change.
    const javaSees = (check: (value: (name: string) => JavaConfig | undefined) => void) =>
      eventually(async () => {
        const { theirs } = await both([resource]);
        check((name) => (theirs[0].configs as JavaConfig[]).find((c) => c.name === name));
      });
    await javaSees((value) => {
      expect(value('max.message.bytes')).toMatchObject({ value: '200000', source: 'DYNAMIC_TOPIC_CONFIG' });
      expect(value('cleanup.policy')?.value).toBe('delete,compact');
    });

    await client.admin.incrementalAlterConfigs([
      {
        resource,
        changes: [
          { name: 'max.message.bytes', op: 'delete' },
          { name: 'cleanup.policy', op: 'subtract', value: 'delete' },
        ],
      },
    ]);
    await javaSees((value) => {
      expect(value('max.message.bytes')?.source).toBe('DEFAULT_CONFIG');
      expect(value('cleanup.policy')?.value).toBe('compact');
    });
  });

  it('validate-only changes nothing', async () => {
    const resource: ConfigResource = { type: 'topic', name: topic };
    const before = await client.admin.describeConfigs([resource]);
    await client.admin.incrementalAlterConfigs(
      [{ resource, changes: [{ name: 'retention.ms', op: 'set', value: '999' }] }],
      { validateOnly: true },
    );
    await client.admin.alterConfigs([{ resource, configs: { 'retention.ms': '999' } }], { validateOnly: true });
    expect(await client.admin.describeConfigs([resource])).toEqual(before);
  });

  it("refuses an unknown config name and an invalid value with the broker's own message, as Java reports it", async () => {
    const resource: ConfigResource = { type: 'topic', name: topic };
    for (const change of [
      { name: 'no.such.config', op: 'set' as const, value: '1' },
      { name: 'retention.ms', op: 'set' as const, value: 'not-a-number' },
    ]) {
      const err = (await client.admin
        .incrementalAlterConfigs([{ resource, changes: [change] }])
        .catch((e: unknown) => e)) as KafkaError;
      expect(isKafkaError(err, 'INVALID_CONFIG')).toBe(true);
      const javaAnswer = await javaAdmin().call<JavaFailure>(at(), 'incrementalAlterConfigs', {
        changes: [{ resource, changes: [change] }],
      });
      expect(javaAnswer.failure.exception).toBe('InvalidConfigurationException');
      expect(err.brokerMessage).toBe(javaAnswer.failure.message);
      expect(err.context).toMatchObject({ api: 'IncrementalAlterConfigs', resource: `topic:${topic}` });
    }
  });

  it('reports each failing resource and keeps what the others produced', async () => {
    const missing = uniqueTopicName('admin-missing');
    const err = (await client.admin
      .describeConfigs([
        { type: 'topic', name: topic },
        { type: 'topic', name: missing },
        { type: 'topic', name: `${missing}-2` },
      ])
      .catch((e: unknown) => e)) as ResourceErrors;
    expect(err).toBeInstanceOf(ResourceErrors);
    expect([...err.errors.keys()].sort()).toEqual([`topic:${missing}`, `topic:${missing}-2`]);
    for (const e of err.errors.values()) expect(isKafkaError(e, 'UNKNOWN_TOPIC_OR_PARTITION')).toBe(true);
    expect(err.succeeded).toHaveLength(1);
    expect(err.succeeded[0]).toMatchObject({ resource: { type: 'topic', name: topic } });
  });

  it('speaks every DescribeConfigs version the broker serves', async () => {
    const versions = legacy ? [0, 1, 2, 3, 4] : [1, 2, 3, 4];
    for (const version of versions) {
      const [r] = await client.admin.describeConfigs([{ type: 'topic', name: topic }], {
        version,
        configNames: ['retention.ms'],
      });
      expect(r.configs).toHaveLength(1);
      expect(r.configs[0].value).toBe('123456');
      expect(r.configs[0].source).toBe(version === 0 ? 'UNKNOWN' : 'DYNAMIC_TOPIC_CONFIG');
    }
  });
});
