/**
 * tidemark/prometheus against the real brokers: a scrape shows what client.metrics() says, in Prometheus text
 * (counters per API and broker, the latency histogram with cumulative buckets, consumer lag), and nothing after
 * the metrics are removed.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { registerPrometheusMetrics } from '../../../src/observability/prometheus.js';
import { eventually } from '../../harness/eventually.js';
import { newTopic, targets } from '../consumer/setup.js';
import { readProcessed } from './read.js';

describe.each(targets())('Prometheus collector ($label)', (target) => {
  it('a scrape has the request counts, the latency histogram and the lag', async () => {
    const client = new Client({ bootstrap: target.bootstrap, clientId: 'obs-prom', requestTimeoutMs: 15_000 });
    const registry = new Registry();
    const unregister = registerPrometheusMetrics(client, { registry });
    try {
      const topic = await newTopic(client, 'obs-prom');
      const producer = client.producer({ lingerMs: 0 });
      for (let i = 0; i < 4; i++) await producer.send({ topic, value: `v${i}` });
      const consumer = client.consumer({ autoOffsetReset: 'earliest' });
      consumer.assign([{ topic, partition: 0 }]);
      expect(await readProcessed(consumer, 2)).toBeGreaterThanOrEqual(2);
      // Read 2 or more (one batch may hold all 4); lag is what is left of the 4.
      const position = client.metrics().consumers[0].lag[0].position;
      const text = await eventually(async () => {
        const scraped = await registry.metrics();
        expect(scraped).toContain(
          `tidemark_consumer_lag{client_id="obs-prom",group="",topic="${topic}",partition="0"} ${4n - position}`,
        );
        return scraped;
      });
      const md = await client.metadata({ topics: [topic] });
      const leader = md.brokers.get(md.topics.get(topic)?.partitions[0].leader ?? -1);
      const labels = `client_id="obs-prom",api="Produce",broker="${leader?.host}:${leader?.port}"`;
      expect(text).toContain(`# TYPE tidemark_requests_total counter`);
      expect(text).toContain(`tidemark_requests_total{${labels}} 4`);
      expect(text).toContain(`tidemark_request_errors_total{${labels}} 0`);
      expect(text).toContain(`# TYPE tidemark_request_duration_seconds histogram`);
      expect(text).toContain(`tidemark_request_duration_seconds_bucket{${labels},le="+Inf"} 4`);
      expect(text).toContain(`tidemark_request_duration_seconds_count{${labels}} 4`);
      // Buckets are cumulative: never decreasing, ending at the count.
      const buckets = [
        ...text.matchAll(
          new RegExp(
            `tidemark_request_duration_seconds_bucket\\{${labels.replace(/[.]/g, '\\.')},le="[^"]+"\\} (\\d+)`,
            'g',
          ),
        ),
      ].map((m) => Number(m[1]));
      expect(buckets).toHaveLength(14);
      expect(buckets.every((n, i) => i === 0 || n >= buckets[i - 1])).toBe(true);
      expect(text).toContain(`tidemark_produce_records_total{client_id="obs-prom"} 4`);
      expect(text).toMatch(/tidemark_consumer_buffer_limit_bytes\{client_id="obs-prom",group=""\} 33554432/);
      await consumer.close();
      await producer.close();
    } finally {
      unregister();
      await client.close();
    }
    expect((await registry.metrics()).trim()).toBe('');
  });
});
