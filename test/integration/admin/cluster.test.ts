import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKafkaError, type KafkaError } from '../../../protocol/kafka-error.js';
import { toJson } from '../../../src/cli/format.js';
import type { Client } from '../../../src/client.js';
import { cli } from '../cli/setup.js';
import { type JavaFailure, useJavaAdmin } from './java-admin.js';
import { newClient, newTopic, TARGETS } from './setup.js';

const javaAdmin = useJavaAdmin();

interface JavaCluster {
  clusterId: string;
  controller: number;
  brokers: { id: number; host: string; port: number; rack: string | null }[];
  authorizedOperations: string[] | null;
}

interface JavaLogDir {
  broker: number;
  path: string;
  error: string | null;
  replicas: { topic: string; partition: number; size: string; offsetLag: string; isFuture: boolean }[];
}

describe.each(TARGETS)('cluster admin on one broker, $label', ({ at }) => {
  let client: Client;

  beforeAll(async () => {
    client = newClient(at());
  });
  afterAll(async () => {
    await client?.close();
  });

  it("describeCluster equals Java's describeCluster; tidemark cluster describe --json equals the API", async () => {
    const ours = await client.admin.describeCluster({ includeAuthorizedOperations: true });
    const theirs = await javaAdmin().call<JavaCluster>(at(), 'describeCluster');
    expect({
      clusterId: ours.clusterId,
      controller: ours.controller,
      brokers: ours.brokers.map((b) => ({ id: b.nodeId, host: b.host, port: b.port, rack: b.rack })),
      authorizedOperations: ours.authorizedOperations ?? null,
    }).toEqual(theirs);
    const json = await cli(['cluster', 'describe', '--operations', '--json'], { bootstrap: at() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(toJson(ours)));
  });

  it("describeLogDirs equals Java's: directories, replicas, sizes and lags", async () => {
    const topic = await newTopic(client, 'logdirs', 2);
    const producer = client.producer();
    for (let i = 0; i < 5; i++) await producer.send({ topic, partition: 1, value: Buffer.alloc(100, i) });
    await producer.close();
    const { brokers } = await client.admin.describeCluster();
    const ids = brokers.map((b) => b.nodeId);
    const ours = await client.admin.describeLogDirs(ids);
    const theirs = await javaAdmin().call<JavaLogDir[]>(at(), 'describeLogDirs', { brokers: ids });
    const order = (a: { partition: number }, b: { partition: number }) => a.partition - b.partition;
    expect(ours.map((d) => ({ broker: d.broker, path: d.path, error: d.error?.errorName ?? null }))).toEqual(
      theirs.map((d) => ({ broker: d.broker, path: d.path, error: d.error })),
    );
    // Sizes of other tests' topics change while the two calls run: this test's topic is compared exactly.
    const ourReplicas = ours
      .flatMap((d) => d.replicas.filter((r) => r.topic === topic))
      .map((r) => ({ ...r, size: String(r.size), offsetLag: String(r.offsetLag) }))
      .sort(order);
    const theirReplicas = theirs.flatMap((d) => d.replicas.filter((r) => r.topic === topic)).sort(order);
    expect(ourReplicas).toEqual(theirReplicas);
    expect(theirReplicas).toHaveLength(2);
    expect(Number(theirReplicas.find((r) => r.partition === 1)?.size)).toBeGreaterThan(0);
  });

  it('electLeaders: the preferred leader already leads (not an error); an unknown partition is a typed error', async () => {
    const topic = await newTopic(client, 'elect', 1);
    expect(await client.admin.electLeaders('preferred', [{ topic, partition: 0 }])).toEqual([
      { topic, partition: 0, elected: false },
    ]);
    const err = (await client.admin
      .electLeaders('preferred', [{ topic, partition: 7 }])
      .catch((e: unknown) => e)) as KafkaError;
    expect(isKafkaError(err, 'UNKNOWN_TOPIC_OR_PARTITION')).toBe(true);
    expect(err.context).toMatchObject({ api: 'ElectLeaders', topic, partition: 7 });
  });

  it("refuses a reassignment to a broker that does not exist with the controller's message, as Java reports it", async () => {
    const topic = await newTopic(client, 'reassign-bad', 1);
    const err = (await client.admin
      .alterPartitionReassignments([{ topic, partition: 0, replicas: [4242] }])
      .catch((e: unknown) => e)) as KafkaError;
    expect(isKafkaError(err, 'INVALID_REPLICA_ASSIGNMENT')).toBe(true);
    const javaAnswer = await javaAdmin().call<JavaFailure>(at(), 'alterPartitionReassignments', {
      moves: [{ topic, partition: 0, replicas: [4242] }],
    });
    expect(javaAnswer.failure.exception).toBe('InvalidReplicaAssignmentException');
    expect(err.brokerMessage).toBe(javaAnswer.failure.message);
    expect(await client.admin.listPartitionReassignments([{ topic, partition: 0 }])).toEqual([]);

    const cancel = (await client.admin
      .alterPartitionReassignments([{ topic, partition: 0, replicas: null }])
      .catch((e: unknown) => e)) as KafkaError;
    expect(isKafkaError(cancel, 'NO_REASSIGNMENT_IN_PROGRESS')).toBe(true);

    const viaCli = await cli(['reassign', 'start', '--move', `${topic}:0=4242`], { bootstrap: at() });
    expect(viaCli.code).toBe(5);
    expect(viaCli.stderr).toContain(javaAnswer.failure.message);
  });
});
