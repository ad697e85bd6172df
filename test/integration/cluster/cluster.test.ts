import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Metadata } from '../../../protocol/apis/metadata.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { Client } from '../../../src/client.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import { BrokerNotFoundError } from '../../../src/cluster/errors.js';
import { Connection } from '../../../src/network/connection.js';
import { ConnectionError } from '../../../src/network/errors.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';

/** A loopback port nothing listens on. */
async function deadAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

const fastBackoff = { initialMs: 10, maxMs: 50 };
let clusters: Cluster[] = [];

function cluster(addresses: string[], retryTimeoutMs?: number): Cluster {
  const c = new Cluster({ bootstrap: addresses, backoff: fastBackoff, retryTimeoutMs });
  clusters.push(c);
  return c;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(clusters.map((c) => c.close()));
  clusters = [];
});

function metadataRequests(): { count: () => number } {
  const spy = vi.spyOn(Connection.prototype, 'request');
  return { count: () => spy.mock.calls.filter(([api]) => api === Metadata).length };
}

describe('cluster against Kafka 4.x', () => {
  it('bootstraps past addresses that do not answer', async () => {
    const dead = await deadAddress();
    const c = cluster([dead, bootstrap()]);
    const md = await c.metadata({ topics: [] });
    expect(md.brokers.size).toBe(1);
  });

  it('gives up with a ConnectionError naming every bootstrap address', async () => {
    const [a, b] = [await deadAddress(), await deadAddress()];
    const c = cluster([a, b], 300);
    const started = Date.now();
    const err = await c.metadata().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.retriable).toBe(true);
    expect(err.message).toContain(a);
    expect(err.message).toContain(b);
    // Retried with backoff for about the retry time, not forever and not just once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps one connection per broker, shared by every lookup', async () => {
    const c = cluster([bootstrap()]);
    const name = uniqueTopicName('pool');
    const client = new Client({ bootstrap: [bootstrap()] });
    await client.admin.createTopics([{ name, numPartitions: 2, replicationFactor: 1 }]);
    await client.close();

    const md = await c.metadata({ topics: [name] });
    const nodeId = [...md.brokers.keys()][0];
    const [a, b, d, e] = await Promise.all([
      c.leaderFor(name, 0),
      c.leaderFor(name, 1),
      c.connectionTo(nodeId),
      c.anyConnection(),
    ]);
    expect(new Set([a, b, d, e]).size).toBe(1);
    expect(c.pool.readyConnections()).toHaveLength(1);
  });

  it('replaces a closed connection on next use', async () => {
    const c = cluster([bootstrap()]);
    const md = await c.metadata({ topics: [] });
    const nodeId = [...md.brokers.keys()][0];
    const first = await c.connectionTo(nodeId);
    await first.close();
    const second = await c.connectionTo(nodeId);
    expect(second).not.toBe(first);
    expect(second.isReady).toBe(true);
    expect((await c.metadata({ topics: [] })).brokers.size).toBe(1);
  });

  it('coalesces concurrent refreshes into one request', async () => {
    const c = cluster([bootstrap()]);
    await c.metadata({ topics: [] });
    const requests = metadataRequests();
    const names = [uniqueTopicName('a'), uniqueTopicName('b')];
    // First call starts a request; the nine others are covered by it or merged into one follow-up.
    const results = await Promise.all([
      c.metadata({ topics: [names[0]] }),
      ...Array.from({ length: 5 }, () => c.metadata({ topics: [names[0]] })),
      ...Array.from({ length: 4 }, () => c.metadata({ topics: [names[1]] })),
    ]);
    expect(requests.count()).toBe(2);
    expect(results[9].topics.get(names[1])?.error?.errorName).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('serves leaders from the cache until a leader error invalidates them', async () => {
    const name = uniqueTopicName('invalidate');
    const client = new Client({ bootstrap: [bootstrap()] });
    clusters.push(client.cluster);
    await client.admin.createTopics([{ name, numPartitions: 1, replicationFactor: 1 }]);
    const c = client.cluster;
    await c.leaderFor(name, 0);
    const requests = metadataRequests();
    await c.leaderFor(name, 0);
    await c.partitionMetadata(name, 0);
    expect(requests.count()).toBe(0);
    c.noteError(kafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER), name);
    await c.leaderFor(name, 0);
    expect(requests.count()).toBe(1);
    c.noteError(kafkaError(ErrorCode.TOPIC_AUTHORIZATION_FAILED), name);
    await c.leaderFor(name, 0);
    expect(requests.count()).toBe(1);
  });

  it('reports an unknown node and an unknown partition with typed errors', async () => {
    const name = uniqueTopicName('unknown-partition');
    const client = new Client({ bootstrap: [bootstrap()] });
    clusters.push(client.cluster);
    await client.admin.createTopics([{ name, numPartitions: 1, replicationFactor: 1 }]);
    await expect(client.cluster.connectionTo(4242)).rejects.toBeInstanceOf(BrokerNotFoundError);
    const err = await client.cluster.leaderFor(name, 7).catch((e) => e);
    expect(err.errorName).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    expect(err.context).toMatchObject({ topic: name, partition: 7 });
  });

  it('rejects pending and later calls with ConnectionError once closed', async () => {
    const c = cluster([bootstrap()]);
    await c.metadata({ topics: [] });
    const conn = await c.anyConnection();
    // Sent in the same tick as close(), so its answer cannot have arrived.
    const pending = conn
      .request(Metadata, { topics: null, allowAutoTopicCreation: false }, { timeoutMs: 10_000 })
      .catch((e) => e);
    const refresh = c.metadata().catch((e) => e);
    await c.close();
    expect(await pending).toBeInstanceOf(ConnectionError);
    expect(await refresh).toBeInstanceOf(ConnectionError);
    const later = await c.anyConnection().catch((e) => e);
    expect(later).toBeInstanceOf(ConnectionError);
    expect(later.retriable).toBe(false);
    expect(conn.isClosed).toBe(true);
  });
});

describe.skipIf(legacyBootstrap() === null)('cluster against Kafka 3.9', () => {
  it('bootstraps and finds the leader of a new topic', async () => {
    const client = new Client({ bootstrap: [await deadAddress(), legacyBootstrap()!] });
    clusters.push(client.cluster);
    const name = uniqueTopicName('legacy-leader');
    await client.admin.createTopics([{ name, numPartitions: 1, replicationFactor: 1 }]);
    const leader = await client.cluster.leaderFor(name, 0);
    expect(leader.apiVersions?.negotiatedWith).toBe(4);
    expect(leader.versionFor(Metadata)).toBe(12);
  });
});
