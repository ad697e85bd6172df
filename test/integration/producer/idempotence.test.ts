import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import type { ProducerOptions } from '../../../src/producer/options.js';
import { Producer } from '../../../src/producer/producer.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { FaultProxy } from '../../harness/fault-proxy.js';
import { readBack } from './read-back.js';

/**
 * A Produce response lost after the broker appended the batch (the connection dies on its way back): the
 * producer retries on a new connection. Idempotent, the broker recognises the retry and nothing is written
 * twice; without idempotence the same fault writes duplicates, which shows the fault really happened.
 */
const PRODUCE_API_KEY = 0;

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

describe.each(generations)('lost Produce responses on $label', ({ address }) => {
  let admin: Client;
  let proxy: FaultProxy;
  beforeAll(async () => {
    if (address === null) return;
    admin = new Client({ bootstrap: [address] });
    proxy = await FaultProxy.start(address);
  });
  afterAll(async () => {
    await proxy?.stop();
    await admin?.close();
  });

  async function produceThroughFaults(options: ProducerOptions) {
    const topic = uniqueTopicName('produce-lost-answer');
    await admin.admin.createTopics([{ name: topic, numPartitions: 2, replicationFactor: 1 }]);
    const cluster = new Cluster({ bootstrap: [address!], socketFactory: proxy.socketFactory });
    const producer = new Producer(cluster, { lingerMs: 5, batchSize: 2000, retryBackoffMs: 20, ...options });
    try {
      // Metadata and (when idempotent) the producer id first, so the lost responses are Produce ones.
      await producer.send({ topic, key: 'warm-up', value: 'warm-up' });
      // Lose the next 3 Produce responses, each by killing its connection instead of forwarding it.
      let lost = 0;
      proxy.onResponse(PRODUCE_API_KEY, () => {
        if (lost === 3) return 'forward';
        lost++;
        return 'cut';
      });
      const sends = [];
      for (let i = 0; i < 300; i++) {
        sends.push(producer.send({ topic, key: `k${i % 10}`, value: `value-${i}`.padEnd(60, '.') }));
        if (i % 30 === 29) await new Promise((r) => setTimeout(r, 5));
      }
      const sent = await Promise.all(sends);
      await producer.close();
      expect(lost).toBe(3);
      return { topic, sent, epoch: producer.producerIdAndEpoch?.epoch };
    } finally {
      proxy.onResponse(PRODUCE_API_KEY, undefined);
      await producer.close({ timeoutMs: 1000 });
      await cluster.close();
    }
  }

  it.skipIf(address === null)(
    'idempotent: every record once, in send() order per key, at the offset send() gave',
    async () => {
      const { topic, sent, epoch } = await produceThroughFaults({});
      const { records } = await readBack(admin, topic);
      expect(records).toHaveLength(301);
      const values = records.map((r) => Buffer.from(r.value!, 'base64').toString().replace(/\.+$/, ''));
      expect(new Set(values).size).toBe(301);
      for (const [i, m] of sent.entries()) {
        const r = records.find((x) => x.partition === m.partition && x.offset === m.offset);
        expect(Buffer.from(r!.value!, 'base64').toString().replace(/\.+$/, ''), `record ${i}`).toBe(`value-${i}`);
      }
      // Per key (one partition each), the log keeps send() order across the retries.
      for (let k = 0; k < 10; k++) {
        const ofKey = records.filter((r) => Buffer.from(r.key!, 'base64').toString() === `k${k}`);
        const order = ofKey.map((r) => Number(Buffer.from(r.value!, 'base64').toString().replace(/\.+$/, '').slice(6)));
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }
      // Retries under the same sequence, not a reset.
      expect(epoch).toBe(0);
    },
  );

  it.skipIf(address === null)('not idempotent: the same fault writes duplicates', async () => {
    const { topic } = await produceThroughFaults({ idempotent: false });
    const { records } = await readBack(admin, topic);
    expect(records.length).toBeGreaterThan(301);
  });
});
