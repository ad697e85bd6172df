/**
 * A partition whose metadata names no leader (a broker's answer during an election, or one whose leader id a
 * flipped bit made negative, as in issue 22's corruption soak). The cluster's metadata cache serves what it has
 * until it is told the topic is stale or its max age (5 minutes) passes; the producer used to ask that cache
 * again and again, got the same leaderless answer from it at once, and held the partition's records until they
 * timed out. It must tell the cache the topic is stale and fetch it anew, at most once per retry backoff.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isKafkaError } from '../../../protocol/kafka-error.js';
import type { TopicMetadata } from '../../../src/cluster/metadata.js';
import { isStaleMetadataCode } from '../../../src/cluster/metadata.js';
import type { ProducerCluster } from '../../../src/producer/cluster-view.js';
import { Producer } from '../../../src/producer/producer.js';
import { type FakeKafka, fakeKafkaWith } from '../../fake-kafka/cluster.js';
import { producerView } from '../../fake-kafka/views.js';

const RETRY_BACKOFF_MS = 20;
const producers: Producer[] = [];
afterEach(async () => {
  await Promise.all(producers.splice(0).map((p) => p.close({ timeoutMs: 100 })));
});

/**
 * The fake cluster behind a cache that keeps each topic's metadata until noteError reports it stale, by the
 * rule the real Cluster applies (a stale-metadata error code marks the topic, or every topic without one).
 */
function cachedView(kafka: FakeKafka): { view: ProducerCluster; fetches: () => number } {
  const inner = producerView(kafka);
  const cache = new Map<string, TopicMetadata>();
  let fetches = 0;
  const view: ProducerCluster = {
    connectionTo: inner.connectionTo,
    anyConnection: inner.anyConnection,
    topicMetadata: async (topic) => {
      let metadata = cache.get(topic);
      if (metadata === undefined) {
        fetches++;
        metadata = kafka.topicMetadata(topic);
        cache.set(topic, metadata);
      }
      return metadata;
    },
    noteError: (err, topic) => {
      if (!isKafkaError(err) || !isStaleMetadataCode(err.code)) return;
      if (topic === undefined) cache.clear();
      else cache.delete(topic);
    },
  };
  return { view, fetches: () => fetches };
}

describe('a partition without a leader in the metadata', () => {
  it('is fetched past the cache, once per backoff, and its record goes once a leader is named', async () => {
    const kafka = fakeKafkaWith({ t: 1 });
    kafka.partition('t', 0).leader = -1;
    const { view, fetches } = cachedView(kafka);
    const p = new Producer(view, {
      lingerMs: 0,
      retryBackoffMs: RETRY_BACKOFF_MS,
      requestTimeoutMs: 1_000,
      deliveryTimeoutMs: 5_000,
    });
    producers.push(p);
    const sent = p.send({ topic: 't', partition: 0, value: 'x' });
    const leaderlessMs = 200;
    await new Promise((r) => setTimeout(r, leaderlessMs));
    // The first fetch (the record's topic) and at least one past the cache for the missing leader...
    expect(fetches()).toBeGreaterThanOrEqual(2);
    // ...but not one per sender run: at most one per backoff (a loop without it makes thousands here).
    expect(fetches()).toBeLessThanOrEqual(2 * (leaderlessMs / RETRY_BACKOFF_MS) + 2);

    kafka.partition('t', 0).leader = kafka.nodes[0];
    expect((await sent).offset).toBe(0n);
    expect(kafka.values('t')).toEqual(['x']);
  });
});
