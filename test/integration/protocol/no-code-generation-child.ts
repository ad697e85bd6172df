/**
 * Run by no-code-generation.test.ts under `node --disallow-code-generation-from-strings`: the public API creates a
 * topic, produces records and reads them back with a group consumer that commits, against the broker at
 * TIDEMARK_BOOTSTRAP. Prints one JSON line with the values read and the committed offset.
 */
import { Client } from '../../../src/index.js';

const bootstrap = process.env.TIDEMARK_BOOTSTRAP as string;
const topic = process.env.TIDEMARK_TOPIC as string;
const client = new Client({ bootstrap: [bootstrap], clientId: 'no-code-generation' });
try {
  await client.admin.createTopics([{ name: topic, numPartitions: 1, replicationFactor: 1 }]);
  const producer = client.producer();
  for (let i = 0; i < 5; i++) await producer.send({ topic, key: `k${i}`, value: `v${i}` });
  await producer.close();
  const consumer = client.consumer({ groupId: `${topic}-group`, autoOffsetReset: 'earliest' });
  await consumer.subscribe({ topics: [topic] });
  const values: string[] = [];
  for await (const batch of consumer) {
    for (const record of batch.records) values.push(record.value?.toString() ?? '');
    if (values.length >= 5) {
      batch.ack();
      break;
    }
  }
  await consumer.close();
  const described = await client.groups.describeGroupOffsets(`${topic}-group`);
  const committed = described.partitions.map((p) => p.committedOffset);
  console.log(JSON.stringify({ values, committed }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
} finally {
  await client.close();
}
