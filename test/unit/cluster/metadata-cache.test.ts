import { describe, expect, it } from 'vitest';
import { kafkaError } from '../../../protocol/kafka-error.js';
import type { ClusterMetadata, TopicMetadata } from '../../../src/cluster/metadata.js';
import { MetadataCache } from '../../../src/cluster/metadata-cache.js';

function topic(name: string, leader = 1): TopicMetadata {
  return {
    name,
    topicId: undefined,
    isInternal: false,
    partitions: [
      { partition: 0, leader, leaderEpoch: 0, replicas: [1], isr: [1], offlineReplicas: [], error: undefined },
    ],
    error: undefined,
  };
}

/** A fetch that records what it was asked and answers when the test says so. */
function controlledFetch() {
  const calls: Array<{
    topics: string[] | null;
    answer: (md?: Partial<ClusterMetadata>) => void;
    fail: (e: Error) => void;
  }> = [];
  const fetch = (topics: string[] | null) =>
    new Promise<ClusterMetadata>((resolve, reject) => {
      calls.push({
        topics,
        answer: (md = {}) =>
          resolve({
            clusterId: 'c',
            controllerId: 1,
            brokers: new Map([[1, { nodeId: 1, host: 'h', port: 1, rack: null }]]),
            topics: new Map((topics ?? ['all-1', 'all-2']).map((t) => [t, topic(t)])),
            version: 12,
            ...md,
          }),
        fail: reject,
      });
    });
  return { calls, fetch };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('MetadataCache', () => {
  it('shares one request among callers it covers and merges the rest into one follow-up', async () => {
    const { calls, fetch } = controlledFetch();
    const cache = new MetadataCache(fetch);
    const a1 = cache.refresh(['a']);
    const a2 = cache.refresh(['a']);
    const b = cache.refresh(['b']);
    const c = cache.refresh(['c', 'a']);
    expect(calls.map((x) => x.topics)).toEqual([['a']]);
    expect(a2).toBe(a1);
    calls[0].answer();
    await a1;
    expect(calls.map((x) => x.topics)).toEqual([['a'], ['b', 'c', 'a']]);
    calls[1].answer();
    expect(await b).toBe(await c);
    expect([...cache.metadata!.topics.keys()].sort()).toEqual(['a', 'b', 'c']);
  });

  it('lets a request for every topic cover any topic, and not the other way round', async () => {
    const { calls, fetch } = controlledFetch();
    const cache = new MetadataCache(fetch);
    const all = cache.refresh(null);
    expect(cache.refresh(['x'])).toBe(all);
    calls[0].answer();
    await all;
    cache.refresh(['x']);
    const everything = cache.refresh(null);
    calls[1].answer();
    await tick();
    expect(calls[2].topics).toBeNull();
    calls[2].answer();
    await everything;
    expect([...cache.metadata!.topics.keys()]).toEqual(['all-1', 'all-2']);
  });

  it('rejects every joined caller when the request fails, then starts afresh', async () => {
    const { calls, fetch } = controlledFetch();
    const cache = new MetadataCache(fetch);
    const first = cache.refresh(['a']);
    const joined = cache.refresh(['a']);
    calls[0].fail(new Error('down'));
    await expect(first).rejects.toThrow('down');
    await expect(joined).rejects.toThrow('down');
    const again = cache.refresh(['a']);
    expect(calls).toHaveLength(2);
    calls[1].answer();
    await again;
  });

  it('serves a topic from the cache until it is invalidated or too old', async () => {
    const { calls, fetch } = controlledFetch();
    const cache = new MetadataCache(fetch, 60_000);
    const first = cache.topic('t');
    calls[0].answer();
    expect((await first).name).toBe('t');
    await cache.topic('t');
    expect(calls).toHaveLength(1);
    cache.invalidate('t');
    const refreshed = cache.topic('t');
    expect(calls).toHaveLength(2);
    calls[1].answer();
    await refreshed;
    cache.invalidate();
    void cache.topic('t');
    expect(calls).toHaveLength(3);
    calls[2].answer();
  });

  it('refreshes a topic older than maxAgeMs', async () => {
    const { calls, fetch } = controlledFetch();
    const cache = new MetadataCache(fetch, 0);
    const first = cache.topic('t');
    calls[0].answer();
    await first;
    const second = cache.topic('t');
    expect(calls).toHaveLength(2);
    calls[1].answer();
    await second;
  });

  it('throws a topic error and does not cache the topic', async () => {
    const { calls, fetch } = controlledFetch();
    const cache = new MetadataCache(fetch);
    const lookup = cache.topic('gone');
    const bad = { ...topic('gone'), error: kafkaError(3, { context: { topic: 'gone' } }) };
    calls[0].answer({ topics: new Map([['gone', bad]]) });
    await expect(lookup).rejects.toMatchObject({ errorName: 'UNKNOWN_TOPIC_OR_PARTITION' });
    expect(cache.metadata!.topics.has('gone')).toBe(false);
    // A topic missing from the answer is as unknown as one with the error.
    const missing = cache.topic('never');
    calls[1].answer({ topics: new Map() });
    await expect(missing).rejects.toMatchObject({ errorName: 'UNKNOWN_TOPIC_OR_PARTITION' });
  });

  it('drops a topic that a later answer reports as deleted', async () => {
    const { calls, fetch } = controlledFetch();
    const cache = new MetadataCache(fetch);
    const first = cache.refresh(['t']);
    calls[0].answer();
    await first;
    const second = cache.refresh(['t']);
    calls[1].answer({ topics: new Map() });
    await second;
    expect(cache.metadata!.topics.has('t')).toBe(false);
  });
});
