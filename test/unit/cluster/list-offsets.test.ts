import { describe, expect, it } from 'vitest';
import { kafkaError } from '../../../protocol/kafka-error.js';
import type { LeaderLookup } from '../../../src/cluster/leader-requests.js';
import {
  type ListOffsetsQuery,
  listOffsets,
  specTimestamp,
  UnsupportedOffsetSpecError,
} from '../../../src/cluster/list-offsets.js';
import type { PartitionMetadata } from '../../../src/cluster/metadata.js';
import { PartitionErrors } from '../../../src/cluster/partition-errors.js';
import { FakeConnection, type Handler } from './fake-connection.js';

const fast = { initialMs: 1, maxMs: 5 };

/** A cluster of fake brokers: `leaders` says who leads each `topic-partition`; the test may move them. */
function fakeCluster(leaders: Record<string, number>, handler: Handler, version = 11) {
  const brokers = new Map<number, FakeConnection>();
  const noted: unknown[] = [];
  const lookup: LeaderLookup = {
    async partitionMetadata(topic, partition): Promise<PartitionMetadata> {
      const leader = leaders[`${topic}-${partition}`];
      if (leader === undefined) throw kafkaError(3, { context: { topic, partition } });
      return { partition, leader, leaderEpoch: 5, replicas: [], isr: [], offlineReplicas: [], error: undefined };
    },
    async connectionTo(nodeId) {
      const c = brokers.get(nodeId) ?? new FakeConnection(nodeId, { ListOffsets: version }, handler);
      brokers.set(nodeId, c);
      return c.asConnection;
    },
    noteError(err) {
      noted.push(err);
    },
  };
  return { lookup, brokers, noted };
}

/** Answers every partition with offset = 100 * partition + 1, and timestamp 7, in the fields of the version. */
const echo: Handler = (_api, v, body) => ({
  topics: body.topics.map((t: { name: string; partitions: { partitionIndex: number }[] }) => ({
    name: t.name,
    partitions: t.partitions.map((p) => {
      const offset = BigInt(100 * p.partitionIndex + 1);
      if (v === 0) return { partitionIndex: p.partitionIndex, errorCode: 0, oldStyleOffsets: [offset] };
      return { partitionIndex: p.partitionIndex, errorCode: 0, timestamp: 7n, offset, leaderEpoch: v >= 4 ? 5 : -1 };
    }),
  })),
});

describe('specTimestamp', () => {
  it('maps named specs to Kafka special timestamps and times to ms', () => {
    expect(
      ['latest', 'earliest', 'max-timestamp', 'earliest-local', 'latest-tiered', 'earliest-pending-upload'].map((s) =>
        specTimestamp(s as never),
      ),
    ).toEqual([-1n, -2n, -3n, -4n, -5n, -6n]);
    expect(specTimestamp({ timestamp: new Date(1234) })).toBe(1234n);
    expect(specTimestamp({ timestamp: 99 })).toBe(99n);
    expect(() => specTimestamp({ timestamp: -1 })).toThrow(RangeError);
    expect(() => specTimestamp('newest' as never)).toThrow(TypeError);
  });
});

describe('listOffsets', () => {
  it('sends one request per leader and answers in query order', async () => {
    const { lookup, brokers } = fakeCluster({ 't-0': 1, 't-1': 2, 't-2': 1 }, echo);
    const queries: ListOffsetsQuery[] = [0, 1, 2].map((partition) => ({ topic: 't', partition, spec: 'latest' }));
    const listed = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, queries);
    expect(listed.map((l) => l.offset)).toEqual([1n, 101n, 201n]);
    expect(listed[0].leaderEpoch).toBe(5);
    expect(brokers.get(1)!.calls).toHaveLength(1);
    expect(
      brokers.get(1)!.calls[0].body.topics[0].partitions.map((p: { partitionIndex: number }) => p.partitionIndex),
    ).toEqual([0, 2]);
    expect(brokers.get(2)!.calls).toHaveLength(1);
    // The fencing epoch from metadata goes with each partition.
    expect(brokers.get(1)!.calls[0].body.topics[0].partitions[0].currentLeaderEpoch).toBe(5);
  });

  it('sends the same partition with two specs in two requests', async () => {
    const { lookup, brokers } = fakeCluster({ 't-0': 1 }, echo);
    await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [
      { topic: 't', partition: 0, spec: 'earliest' },
      { topic: 't', partition: 0, spec: 'latest' },
    ]);
    expect(brokers.get(1)!.calls.map((c) => c.body.topics[0].partitions[0].timestamp)).toEqual([-2n, -1n]);
  });

  it('retries a partition whose leader moved, at the new leader, after noting the stale metadata', async () => {
    const leaders: Record<string, number> = { 't-0': 1 };
    let n = 0;
    const { lookup, brokers, noted } = fakeCluster(leaders, (api, v, body) => {
      if (++n === 1) {
        leaders['t-0'] = 2;
        return { topics: [{ name: 't', partitions: [{ partitionIndex: 0, errorCode: 6 }] }] };
      }
      return echo(api, v, body, n);
    });
    const [listed] = await listOffsets({ cluster: lookup, requestTimeoutMs: 2_000, backoff: fast }, [
      { topic: 't', partition: 0, spec: 'earliest' },
    ]);
    expect(listed.offset).toBe(1n);
    expect(noted).toHaveLength(1);
    expect(brokers.get(2)!.calls).toHaveLength(1);
  });

  it('refuses a spec the negotiated version cannot express, with a typed error', async () => {
    const { lookup } = fakeCluster({ 't-0': 1 }, echo, 6);
    const err = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [
      { topic: 't', partition: 0, spec: 'max-timestamp' },
    ]).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedOffsetSpecError);
    expect(err.message).toContain("'max-timestamp' needs ListOffsets v7+");
    expect(err.minVersion).toBe(7);
  });

  it('refuses read_committed before v2', async () => {
    const { lookup } = fakeCluster({ 't-0': 1 }, echo, 1);
    await expect(
      listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [{ topic: 't', partition: 0, spec: 'latest' }], {
        isolationLevel: 'read_committed',
      }),
    ).rejects.toThrow(/read_committed needs ListOffsets v2/);
  });

  it('reads v0 answers from the old-style offset list', async () => {
    const { lookup, brokers } = fakeCluster({ 't-3': 1 }, echo, 0);
    const [listed] = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [
      { topic: 't', partition: 3, spec: 'earliest' },
    ]);
    expect(listed).toMatchObject({ offset: 301n, timestamp: -1n, leaderEpoch: -1 });
    expect(brokers.get(1)!.calls[0].body.topics[0].partitions[0].maxNumOffsets).toBe(1);
  });

  it('throws partition errors that are not retriable, one kind as itself, mixed ones as PartitionErrors', async () => {
    const failing: Handler = (_a, _v, body) => ({
      topics: [
        {
          name: 't',
          partitions: body.topics[0].partitions.map((p: { partitionIndex: number }) => ({
            partitionIndex: p.partitionIndex,
            errorCode: p.partitionIndex === 0 ? 29 : 43,
          })),
        },
      ],
    });
    const { lookup } = fakeCluster({ 't-0': 1, 't-1': 1 }, failing);
    const one = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [
      { topic: 't', partition: 0, spec: 'latest' },
    ]).catch((e) => e);
    expect(one.errorName).toBe('TOPIC_AUTHORIZATION_FAILED');
    const mixed = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [
      { topic: 't', partition: 0, spec: 'latest' },
      { topic: 't', partition: 1, spec: 'latest' },
    ]).catch((e) => e);
    expect(mixed).toBeInstanceOf(PartitionErrors);
    expect(mixed.failures).toHaveLength(2);
  });

  it('fails fast for a topic metadata does not know', async () => {
    const { lookup } = fakeCluster({}, echo);
    const started = Date.now();
    const err = await listOffsets({ cluster: lookup, requestTimeoutMs: 5_000 }, [
      { topic: 'nope', partition: 0, spec: 'latest' },
    ]).catch((e) => e);
    expect(err.errorName).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('settles on time while a leader keeps failing retriably', async () => {
    const { lookup } = fakeCluster({ 't-0': 1 }, () => ({
      topics: [{ name: 't', partitions: [{ partitionIndex: 0, errorCode: 5 }] }],
    }));
    const started = Date.now();
    const err = await listOffsets(
      { cluster: lookup, requestTimeoutMs: 5_000, backoff: fast },
      [{ topic: 't', partition: 0, spec: 'latest' }],
      { timeoutMs: 200 },
    ).catch((e) => e);
    expect(err.name).toBe('CallTimeoutError');
    expect(err.message).toContain('LEADER_NOT_AVAILABLE');
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
