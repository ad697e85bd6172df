import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { PartitionErrors } from '../../../src/cluster/partition-errors.js';
import { commitOffsets } from '../../../src/commit/offset-commit.js';
import type { CommitCluster } from '../../../src/commit/types.js';
import { FakeKafka } from '../../fake-kafka/cluster.js';
import type { ControlHook } from '../../fake-kafka/control.js';
import { coordinatorsView } from '../../fake-kafka/views.js';

const FAST = { initialMs: 1, maxMs: 5 };
/** The fake's ids of topics a (created first) and b. */
const IDS: Record<string, string> = { a: 'AAAAAAAAAAAAAAAAAAAAAQ', b: 'AAAAAAAAAAAAAAAAAAAAAg' };

/** The metadata cache the commit asks for topic ids (a stand-in, so a test can leave an id out). */
function metadata(ids: Record<string, string | undefined> = IDS): CommitCluster & { invalidated: unknown[] } {
  const invalidated: unknown[] = [];
  return {
    invalidated,
    metadataCache: {
      async topic(name) {
        if (!(name in ids)) throw kafkaError(3, { context: { topic: name } });
        return { name, topicId: ids[name], isInternal: false, partitions: [], error: undefined };
      },
      invalidate(topic) {
        invalidated.push(topic);
      },
    },
  };
}

/** Answers each partition with `codeOf(topic, partition, attempt)` instead of the group (nothing is stored). */
function answering(codeOf: (topic: string, partition: number, attempt: number) => number): ControlHook {
  let attempt = 0;
  const byId = Object.fromEntries(Object.entries(IDS).map(([n, id]) => [id, n]));
  return ({ version, body }) => {
    attempt++;
    return {
      response: {
        throttleTimeMs: 0,
        topics: body.topics.map((t: { name?: string; topicId?: string; partitions: { partitionIndex: number }[] }) => ({
          ...(version >= 10 ? { topicId: t.topicId } : { name: t.name }),
          partitions: t.partitions.map((p) => ({
            partitionIndex: p.partitionIndex,
            errorCode: codeOf(version >= 10 ? byId[t.topicId!] : t.name!, p.partitionIndex, attempt),
          })),
        })),
      },
    };
  };
}

/** Brokers 1 and 2 of the fake cluster (topics a: 3 partitions, b: 1), group coordinator on 1. */
function setup(versions: Record<string, number> = {}, ids?: Record<string, string | undefined>) {
  const kafka = new FakeKafka([1, 2]);
  kafka.createTopic('a', 3);
  kafka.createTopic('b', 1);
  Object.assign(kafka.versions, versions);
  const ctx = { cluster: metadata(ids), coordinators: coordinatorsView(kafka), requestTimeoutMs: 2_000, backoff: FAST };
  const commits = (node?: number) => kafka.requests('OffsetCommit', node);
  const committed = (key: string) => kafka.group('g').committed.get(key);
  return { kafka, ctx, commits, committed };
}

describe('commitOffsets', () => {
  it('commits standalone: generation -1, no member id, with epochs and metadata', async () => {
    const { ctx, commits, committed } = setup();
    await commitOffsets(ctx, 'g', [
      { topic: 'a', partition: 0, offset: 10n, leaderEpoch: 3, metadata: 'm' },
      { topic: 'a', partition: 1, offset: 11n },
      { topic: 'b', partition: 0, offset: 5n },
    ]);
    const [call] = commits();
    expect(call.version).toBe(9);
    expect(call.body).toMatchObject({
      groupId: 'g',
      generationIdOrMemberEpoch: -1,
      memberId: '',
      groupInstanceId: null,
    });
    expect(call.body.topics.map((t: { name: string }) => t.name)).toEqual(['a', 'b']);
    expect(call.body.topics[0].partitions[0]).toMatchObject({
      committedOffset: 10n,
      committedLeaderEpoch: 3,
      committedMetadata: 'm',
    });
    expect(call.body.topics[0].partitions[1].committedLeaderEpoch).toBe(-1);
    expect(committed('a/0')).toEqual({ offset: 10n, leaderEpoch: 3, metadata: 'm' });
    expect(committed('b/0')?.offset).toBe(5n);
  });

  it('commits as a member with its generation, member id and instance id', async () => {
    const { kafka, ctx, commits, committed } = setup();
    kafka.group('g').classic.seat('m-1', 7, 'static-1');
    const member = { memberId: 'm-1', generationIdOrMemberEpoch: 7, groupInstanceId: 'static-1' };
    await commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }], { member });
    expect(commits()[0].body).toMatchObject({
      generationIdOrMemberEpoch: 7,
      memberId: 'm-1',
      groupInstanceId: 'static-1',
    });
    expect(committed('a/0')?.offset).toBe(1n);
  });

  it('is refused as the coordinator refuses a member: unknown, an old generation, a fenced or stale epoch', async () => {
    const { kafka, ctx, committed } = setup();
    const commit = (memberId: string, generationIdOrMemberEpoch: number) =>
      commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: 9n }], {
        member: { memberId, generationIdOrMemberEpoch, groupInstanceId: null },
      }).catch((e) => e.errorName);
    kafka.group('g').classic.seat('classic-1', 3);
    expect(await commit('nobody', 3)).toBe('UNKNOWN_MEMBER_ID');
    expect(await commit('classic-1', 2)).toBe('ILLEGAL_GENERATION');
    expect(await commit('', -1)).toBe('UNKNOWN_MEMBER_ID');
    expect(committed('a/0')).toBeUndefined();

    const kip848 = setup();
    kip848.kafka.group('g').members.set('m', { memberEpoch: 5, topics: ['a'] });
    const commit848 = (epoch: number) =>
      commitOffsets(kip848.ctx, 'g', [{ topic: 'a', partition: 0, offset: 9n }], {
        member: { memberId: 'm', generationIdOrMemberEpoch: epoch, groupInstanceId: null },
      }).catch((e) => e.errorName);
    expect(await commit848(6)).toBe('FENCED_MEMBER_EPOCH');
    expect(await commit848(4)).toBe('STALE_MEMBER_EPOCH');
    expect(kip848.committed('a/0')).toBeUndefined();
    expect(await commit848(5)).toBeUndefined();
    expect(kip848.committed('a/0')?.offset).toBe(9n);
  });

  it('names topics by id from v10, and falls back to v9 names when an id is unknown', async () => {
    const withIds = setup({ OffsetCommit: 10 });
    await commitOffsets(withIds.ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }]);
    expect(withIds.commits()[0]).toMatchObject({ version: 10 });
    expect(withIds.commits()[0].body.topics[0].topicId).toBe(IDS.a);
    expect(withIds.committed('a/0')?.offset).toBe(1n);

    const without = setup({ OffsetCommit: 10 }, { a: undefined });
    await commitOffsets(without.ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }]);
    expect(without.commits()[0].version).toBe(9);
  });

  it('sends again only the partitions that failed retriably, so none is applied twice', async () => {
    const { kafka, ctx, commits, committed } = setup();
    kafka.control(
      'OffsetCommit',
      answering((t, p) => (t === 'a' && p === 1 ? ErrorCode.COORDINATOR_LOAD_IN_PROGRESS : 0)),
      { times: 1 },
    );
    await commitOffsets(ctx, 'g', [
      { topic: 'a', partition: 0, offset: 10n },
      { topic: 'a', partition: 1, offset: 11n },
    ]);
    const calls = commits();
    expect(calls).toHaveLength(2);
    expect(calls[1].body.topics[0].partitions.map((p: { partitionIndex: number }) => p.partitionIndex)).toEqual([1]);
    expect(committed('a/1')?.offset).toBe(11n);
  });

  it('rediscovers the coordinator after NOT_COORDINATOR', async () => {
    const { kafka, ctx, commits, committed } = setup();
    const refuse = answering(() => ErrorCode.NOT_COORDINATOR);
    kafka.control(
      'OffsetCommit',
      (request) => {
        kafka.coordinatorOf = () => 2;
        return refuse(request);
      },
      { node: 1, times: 1 },
    );
    await commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }]);
    expect(commits(1)).toHaveLength(1);
    expect(commits(2)).toHaveLength(1);
    expect(committed('a/0')?.offset).toBe(1n);
  });

  it('throws the shared error when every partition is refused alike', async () => {
    const { ctx } = setup();
    // A member the group does not know: the fake's group refuses every partition.
    const member = { memberId: 'ghost', generationIdOrMemberEpoch: 1, groupInstanceId: null };
    const err = await commitOffsets(
      ctx,
      'g',
      [
        { topic: 'a', partition: 0, offset: 1n },
        { topic: 'a', partition: 1, offset: 1n },
      ],
      { member },
    ).catch((e) => e);
    expect(err.errorName).toBe('UNKNOWN_MEMBER_ID');
    expect(err.context.groupId).toBe('g');
  });

  it('throws PartitionErrors when partitions fail differently', async () => {
    const { kafka, ctx } = setup();
    kafka.control(
      'OffsetCommit',
      answering((_t, p) => (p === 0 ? 0 : p === 1 ? 12 : 29)),
    );
    const err = await commitOffsets(
      ctx,
      'g',
      [0, 1, 2].map((partition) => ({ topic: 'a', partition, offset: 1n })),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PartitionErrors);
    expect(err.failures.map((f: { partition: number }) => f.partition)).toEqual([1, 2]);
    expect(err.succeeded).toHaveLength(1);
  });

  it('rejects bad input before sending anything', async () => {
    const { ctx, commits } = setup();
    await expect(commitOffsets(ctx, '', [])).rejects.toThrow(TypeError);
    await expect(commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: -1n }])).rejects.toThrow(RangeError);
    await expect(
      commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: 1 as unknown as bigint }]),
    ).rejects.toThrow(RangeError);
    expect(commits()).toHaveLength(0);
  });

  it('settles on time with an abort signal while the coordinator keeps loading', async () => {
    const { kafka, ctx } = setup();
    kafka.control(
      'OffsetCommit',
      answering(() => ErrorCode.COORDINATOR_LOAD_IN_PROGRESS),
    );
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    const err = await commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }], {
      signal: ac.signal,
      timeoutMs: 60_000,
    }).catch((e) => e);
    expect(err.name).toBe('RequestAbortedError');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
