import { describe, expect, it } from 'vitest';
import type { LeaderLookup } from '../../../src/cluster/leader-requests.js';
import {
  type ListOffsetsQuery,
  listOffsets,
  specTimestamp,
  UnsupportedOffsetSpecError,
} from '../../../src/cluster/list-offsets.js';
import { PartitionErrors } from '../../../src/cluster/partition-errors.js';
import { FakeKafka } from '../../fake-kafka/cluster.js';
import type { ControlHook } from '../../fake-kafka/control.js';
import { consumerView } from '../../fake-kafka/views.js';

const fast = { initialMs: 1, maxMs: 5 };

/**
 * The fake cluster with topic t (4 partitions, partition p holding 100 * p + 1 records) led by `leaderOf`, at
 * ListOffsets `version`; `lookup` is what listOffsets is given (the consumer view's leaders and connections),
 * noting what it is told about stale metadata in `noted`.
 */
function fakeCluster(leaderOf: (p: number) => number = () => 1, version = 11) {
  const kafka = new FakeKafka([1, 2]);
  kafka.createTopic('t', 4, leaderOf);
  for (let p = 0; p < 4; p++) kafka.append('t', p, 100 * p + 1, 50);
  kafka.versions.ListOffsets = version;
  const cluster = consumerView(kafka);
  const noted: unknown[] = [];
  const lookup: LeaderLookup = {
    partitionMetadata: (topic, partition) => cluster.partitionMetadata(topic, partition),
    connectionTo: (nodeId) => cluster.connectionTo(nodeId),
    noteError(err) {
      noted.push(err);
    },
  };
  const calls = (node?: number) => kafka.requests('ListOffsets', node);
  return { kafka, lookup, calls, noted };
}

/** Answers every partition of a ListOffsets with `codeOf(partition)`. */
const failing =
  (codeOf: (partition: number) => number): ControlHook =>
  ({ body }) => ({
    response: {
      topics: [
        {
          name: 't',
          partitions: body.topics[0].partitions.map((p: { partitionIndex: number }) => ({
            partitionIndex: p.partitionIndex,
            errorCode: codeOf(p.partitionIndex),
          })),
        },
      ],
    },
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
    const { kafka, lookup, calls } = fakeCluster((p) => (p === 1 ? 2 : 1));
    kafka.moveLeader('t', 0, 1);
    const epoch = kafka.partition('t', 0).leaderEpoch;
    expect(epoch).toBeGreaterThan(0);
    const queries: ListOffsetsQuery[] = [0, 1, 2].map((partition) => ({ topic: 't', partition, spec: 'latest' }));
    const listed = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, queries);
    expect(listed.map((l) => l.offset)).toEqual([1n, 101n, 201n]);
    expect(listed[0].leaderEpoch).toBe(epoch);
    expect(calls(1)).toHaveLength(1);
    expect(calls(1)[0].body.topics[0].partitions.map((p: { partitionIndex: number }) => p.partitionIndex)).toEqual([
      0, 2,
    ]);
    expect(calls(2)).toHaveLength(1);
    // The fencing epoch from metadata goes with each partition.
    expect(calls(1)[0].body.topics[0].partitions[0].currentLeaderEpoch).toBe(epoch);
  });

  it('sends the same partition with two specs in two requests', async () => {
    const { lookup, calls } = fakeCluster();
    const listed = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [
      { topic: 't', partition: 0, spec: 'earliest' },
      { topic: 't', partition: 0, spec: 'latest' },
    ]);
    expect(calls().map((c) => c.body.topics[0].partitions[0].timestamp)).toEqual([-2n, -1n]);
    expect(listed.map((l) => l.offset)).toEqual([0n, 1n]);
  });

  it('retries a partition whose leader moved, at the new leader, after noting the stale metadata', async () => {
    const { kafka, lookup, calls, noted } = fakeCluster();
    // The leadership moves to broker 2 as the request reaches broker 1, which answers NOT_LEADER_OR_FOLLOWER.
    kafka.control(
      'ListOffsets',
      () => {
        kafka.moveLeader('t', 0, 2);
        return undefined;
      },
      { node: 1 },
    );
    const [listed] = await listOffsets({ cluster: lookup, requestTimeoutMs: 2_000, backoff: fast }, [
      { topic: 't', partition: 0, spec: 'latest' },
    ]);
    expect(listed.offset).toBe(1n);
    expect(noted).toHaveLength(1);
    expect(calls(1)).toHaveLength(1);
    expect(calls(2)).toHaveLength(1);
  });

  it('refuses a spec the negotiated version cannot express, with a typed error', async () => {
    const { lookup, calls } = fakeCluster(undefined, 6);
    const err = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [
      { topic: 't', partition: 0, spec: 'max-timestamp' },
    ]).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedOffsetSpecError);
    expect(err.message).toContain("'max-timestamp' needs ListOffsets v7+");
    expect(err.minVersion).toBe(7);
    expect(calls()).toHaveLength(0);
  });

  it('refuses read_committed before v2', async () => {
    const { lookup } = fakeCluster(undefined, 1);
    await expect(
      listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [{ topic: 't', partition: 0, spec: 'latest' }], {
        isolationLevel: 'read_committed',
      }),
    ).rejects.toThrow(/read_committed needs ListOffsets v2/);
  });

  it('reads v0 answers from the old-style offset list', async () => {
    const { lookup, calls } = fakeCluster(undefined, 0);
    const [listed] = await listOffsets({ cluster: lookup, requestTimeoutMs: 1_000 }, [
      { topic: 't', partition: 3, spec: 'latest' },
    ]);
    expect(listed).toMatchObject({ offset: 301n, timestamp: -1n, leaderEpoch: -1 });
    expect(calls()[0].body.topics[0].partitions[0].maxNumOffsets).toBe(1);
  });

  it('throws partition errors that are not retriable, one kind as itself, mixed ones as PartitionErrors', async () => {
    const { kafka, lookup } = fakeCluster();
    kafka.control(
      'ListOffsets',
      failing((p) => (p === 0 ? 29 : 43)),
    );
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
    const { lookup } = fakeCluster();
    const started = Date.now();
    const err = await listOffsets({ cluster: lookup, requestTimeoutMs: 5_000 }, [
      { topic: 'nope', partition: 0, spec: 'latest' },
    ]).catch((e) => e);
    expect(err.errorName).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('settles on time while a leader keeps failing retriably', async () => {
    const { kafka, lookup } = fakeCluster();
    kafka.control(
      'ListOffsets',
      failing(() => 5),
    );
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
