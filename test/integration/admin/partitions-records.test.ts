import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKafkaError, type KafkaError } from '../../../protocol/kafka-error.js';
import type { Client } from '../../../src/client.js';
import { eventually } from '../../harness/eventually.js';
import { type JavaFailure, useJavaAdmin } from './java-admin.js';
import { brokerId, newClient, newTopic, TARGETS } from './setup.js';

const javaAdmin = useJavaAdmin();

interface JavaPartition {
  partition: number;
  leader: number;
  replicas: number[];
}

describe.each(TARGETS)('createPartitions and deleteRecords against $label', ({ at }) => {
  let client: Client;

  beforeAll(async () => {
    client = newClient(at());
  });
  afterAll(async () => {
    await client?.close();
  });

  it("adds partitions (with an assignment); Java's describeTopics sees the same partitions, leaders and replicas", async () => {
    const topic = await newTopic(client, 'grow', 1);
    const broker = Number(await brokerId(client));
    expect(await client.admin.createPartitions([{ topic, count: 3 }])).toEqual([{ topic, count: 3 }]);
    await client.admin.createPartitions([{ topic, count: 4, assignments: [[broker]] }]);
    // The broker describes the topic from its own replay of the metadata log, a moment after it answered.
    await eventually(async () => {
      const [ours] = await client.admin.describeTopics([topic]);
      const theirs = await javaAdmin().call<JavaPartition[]>(at(), 'describeTopic', { topic });
      expect(ours.partitions.map((p) => ({ partition: p.partition, leader: p.leader, replicas: p.replicas }))).toEqual(
        theirs,
      );
      expect(theirs).toHaveLength(4);
    });
  });

  it('validate-only changes nothing', async () => {
    const topic = await newTopic(client, 'validate', 2);
    expect(await client.admin.createPartitions([{ topic, count: 5 }], { validateOnly: true })).toEqual([
      { topic, count: 5 },
    ]);
    expect(await javaAdmin().call<JavaPartition[]>(at(), 'describeTopic', { topic })).toHaveLength(2);
  });

  it("refuses a count below the current one with the broker's message, as Java reports it", async () => {
    const topic = await newTopic(client, 'shrink', 3);
    const err = (await client.admin.createPartitions([{ topic, count: 2 }]).catch((e: unknown) => e)) as KafkaError;
    expect(isKafkaError(err, 'INVALID_PARTITIONS')).toBe(true);
    const javaAnswer = await javaAdmin().call<JavaFailure>(at(), 'createPartitions', { topic, count: 2 });
    expect(javaAnswer.failure.exception).toBe('InvalidPartitionsException');
    expect(err.brokerMessage).toBe(javaAnswer.failure.message);
    expect(err.context).toMatchObject({ api: 'CreatePartitions', topic });
  });

  it('refuses an assignment to a broker that does not exist as INVALID_REPLICA_ASSIGNMENT with its message', async () => {
    const topic = await newTopic(client, 'badassign', 1);
    const err = (await client.admin
      .createPartitions([{ topic, count: 2, assignments: [[4242]] }])
      .catch((e: unknown) => e)) as KafkaError;
    expect(isKafkaError(err, 'INVALID_REPLICA_ASSIGNMENT')).toBe(true);
    expect(err.brokerMessage).toMatch(/4242/);
    expect(await javaAdmin().call<JavaPartition[]>(at(), 'describeTopic', { topic })).toHaveLength(1);
  });

  it("deletes records before an offset; the low watermarks equal Java's deleteRecords and the log start", async () => {
    const topic = await newTopic(client, 'delete', 2);
    const producer = client.producer();
    for (let i = 0; i < 10; i++) await producer.send({ topic, partition: 0, value: Buffer.from(`r${i}`) });
    for (let i = 0; i < 3; i++) await producer.send({ topic, partition: 1, value: Buffer.from(`r${i}`) });
    await producer.close();

    const deleted = await client.admin.deleteRecords([
      { topic, partition: 0, before: 4n },
      { topic, partition: 1, before: 'high-watermark' },
    ]);
    expect(deleted).toEqual([
      { topic, partition: 0, lowWatermark: 4n },
      { topic, partition: 1, lowWatermark: 3n },
    ]);
    // Java deleting before the same offset again answers the same low watermark.
    const theirs = await javaAdmin().call<{ lowWatermark: string }[]>(at(), 'deleteRecords', {
      targets: [{ topic, partition: 0, before: '4' }],
    });
    expect(theirs.map((t) => BigInt(t.lowWatermark))).toEqual([4n]);
    const earliest = await client.offsets.earliest(topic);
    expect(earliest.map((e) => e.offset)).toEqual([4n, 3n]);
  });

  it('refuses an offset past the high watermark per partition, keeping what succeeded', async () => {
    const topic = await newTopic(client, 'delete-oor', 1);
    const err = (await client.admin
      .deleteRecords([{ topic, partition: 0, before: 50n }])
      .catch((e: unknown) => e)) as KafkaError;
    expect(isKafkaError(err, 'OFFSET_OUT_OF_RANGE')).toBe(true);
    expect(err.context).toMatchObject({ api: 'DeleteRecords', topic, partition: 0 });
  });
});
