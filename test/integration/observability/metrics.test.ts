/**
 * client.metrics() against the real brokers: after a known produce and consume, lag is the high watermark minus
 * the position, every API used has requests counted at the leader's address, and the histogram, rates, commit
 * latency and buffer limits say what happened.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { eventually } from '../../harness/eventually.js';
import { newTopic, targets, uniqueGroup } from '../consumer/setup.js';
import { readProcessed } from './read.js';

describe.each(targets())('client.metrics() ($label)', (target) => {
  it('counts what a produce → consume → commit did, and lag is HWM − position', async () => {
    const client = new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
    try {
      const topic = await newTopic(client, 'obs-metrics');
      const producer = client.producer({ lingerMs: 0 });
      for (let i = 0; i < 10; i++) await producer.send({ topic, value: `v${i}` });

      const consumer = client.consumer({
        groupId: uniqueGroup('obs-metrics'),
        autoCommit: false,
        autoOffsetReset: 'earliest',
        maxBufferedBytes: 4 << 20,
      });
      consumer.assign([{ topic, partition: 0 }]);
      // The position is then 10.
      expect(await readProcessed(consumer, 10)).toBe(10);
      await consumer.commit();
      // Five more: the consumer's background fetch sees the new high watermark, its position stays at 10.
      for (let i = 10; i < 15; i++) await producer.send({ topic, value: `v${i}` });

      const lag = await eventually(async () => {
        const c = client.metrics().consumers[0];
        expect(c.lag[0].logEndOffset).toBe(15n);
        return c.lag[0];
      });
      expect(lag).toMatchObject({ topic, partition: 0, position: 10n, logEndOffset: 15n, lag: 5n, committed: 10n });

      const m = client.metrics();
      expect(m.consumers).toHaveLength(1);
      expect(m.consumers[0].recordsDelivered).toBe(10);
      expect(m.consumers[0].commitLatency.count).toBe(1);
      expect(m.consumers[0].bufferLimit).toBe(4 << 20);
      expect(m.producers).toEqual([{ bufferedBytes: 0, bufferLimit: 32 * 1024 * 1024 }]);
      expect(m.produce.records.total).toBe(15);
      expect(m.produce.requests.total).toBe(15);
      expect(m.produce.records.perSecond).toBeGreaterThan(0);
      expect(m.produce.errors).toBe(0);
      expect(m.fetch.requests.total).toBeGreaterThan(0);
      expect(m.fetch.bytes.total).toBeGreaterThan(0);

      const md = await client.metadata({ topics: [topic] });
      const leader = md.brokers.get(md.topics.get(topic)?.partitions[0].leader ?? -1);
      const at = `${leader?.host}:${leader?.port}`;
      const byApi = (api: string) => m.requests.filter((r) => r.apiName === api && r.broker === at);
      for (const api of [
        'ApiVersions',
        'Metadata',
        'Produce',
        'Fetch',
        'ListOffsets',
        'OffsetCommit',
        'FindCoordinator',
      ]) {
        const rows = byApi(api);
        expect(rows, api).toHaveLength(1);
        expect(rows[0].count, api).toBeGreaterThan(0);
        expect(rows[0].requestBytes, api).toBeGreaterThan(0);
        // Every settled request is in exactly one bucket.
        expect(
          rows[0].latency.counts.reduce((a, b) => a + b, 0),
          api,
        ).toBe(rows[0].count);
        expect(rows[0].latency.count).toBe(rows[0].count);
      }
      expect(byApi('Produce')[0].count).toBe(15);
      expect(byApi('Produce')[0].errors).toBe(0);

      await consumer.close();
      await producer.close();
      expect(client.metrics().consumers).toEqual([]);
      expect(client.metrics().producers).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
