import { describe, expect, it } from 'vitest';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { PartitionErrors } from '../../../src/cluster/partition-errors.js';
import { commitOffsets } from '../../../src/commit/offset-commit.js';
import type { CommitCluster } from '../../../src/commit/types.js';
import type { Handler } from '../cluster/fake-connection.js';
import { FAST, fakeGroupCluster, findAnswer } from '../coordinator/fake-coordinators.js';

const IDS: Record<string, string> = { a: 'AAAAAAAAAAAAAAAAAAAAAQ', b: 'AAAAAAAAAAAAAAAAAAAAAg' };

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

/** Answers each partition with `codeOf(topic, partition, attempt)`. */
function answering(codeOf: (topic: string, partition: number, attempt: number) => number): Handler {
  let attempt = 0;
  return (_api, version, body) => {
    attempt++;
    const byId = Object.fromEntries(Object.entries(IDS).map(([n, id]) => [id, n]));
    return {
      topics: body.topics.map((t: { name?: string; topicId?: string; partitions: { partitionIndex: number }[] }) => ({
        ...(version >= 10 ? { topicId: t.topicId } : { name: t.name }),
        partitions: t.partitions.map((p) => ({
          partitionIndex: p.partitionIndex,
          errorCode: codeOf(version >= 10 ? byId[t.topicId!] : t.name!, p.partitionIndex, attempt),
        })),
      })),
    };
  };
}

function setup(groupHandler: Handler, versions: Record<string, number> = {}, ids?: Record<string, string | undefined>) {
  const fake = fakeGroupCluster({ findHandler: (_a, _v, body) => findAnswer(body, 1), groupHandler, versions });
  const ctx = { cluster: metadata(ids), coordinators: fake.coordinators, requestTimeoutMs: 2_000, backoff: FAST };
  return { ...fake, ctx };
}

describe('commitOffsets', () => {
  it('commits standalone: generation -1, no member id, with epochs and metadata', async () => {
    const { ctx, node } = setup(answering(() => 0));
    await commitOffsets(ctx, 'g', [
      { topic: 'a', partition: 0, offset: 10n, leaderEpoch: 3, metadata: 'm' },
      { topic: 'a', partition: 1, offset: 11n },
      { topic: 'b', partition: 0, offset: 5n },
    ]);
    const [call] = node(1).calls;
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
  });

  it('commits as a member with its generation, member id and instance id', async () => {
    const { ctx, node } = setup(answering(() => 0));
    const member = { memberId: 'm-1', generationIdOrMemberEpoch: 7, groupInstanceId: 'static-1' };
    await commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }], { member });
    expect(node(1).calls[0].body).toMatchObject({
      generationIdOrMemberEpoch: 7,
      memberId: 'm-1',
      groupInstanceId: 'static-1',
    });
  });

  it('names topics by id from v10, and falls back to v9 names when an id is unknown', async () => {
    const withIds = setup(
      answering(() => 0),
      { OffsetCommit: 10 },
    );
    await commitOffsets(withIds.ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }]);
    expect(withIds.node(1).calls[0]).toMatchObject({ version: 10 });
    expect(withIds.node(1).calls[0].body.topics[0].topicId).toBe(IDS.a);

    const without = setup(
      answering(() => 0),
      { OffsetCommit: 10 },
      { a: undefined },
    );
    await commitOffsets(without.ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }]);
    expect(without.node(1).calls[0].version).toBe(9);
  });

  it('sends again only the partitions that failed retriably, so none is applied twice', async () => {
    const { ctx, node } = setup(answering((t, p, attempt) => (attempt === 1 && t === 'a' && p === 1 ? 14 : 0)));
    await commitOffsets(ctx, 'g', [
      { topic: 'a', partition: 0, offset: 10n },
      { topic: 'a', partition: 1, offset: 11n },
    ]);
    const calls = node(1).calls;
    expect(calls).toHaveLength(2);
    expect(calls[1].body.topics[0].partitions.map((p: { partitionIndex: number }) => p.partitionIndex)).toEqual([1]);
  });

  it('rediscovers the coordinator after NOT_COORDINATOR', async () => {
    let moved = false;
    const fake = fakeGroupCluster({
      findHandler: (_a, _v, body) => findAnswer(body, moved ? 2 : 1),
      groupHandler: (api, v, body, n) => {
        if (!moved) {
          moved = true;
          return answering(() => 16)(api, v, body, n);
        }
        return answering(() => 0)(api, v, body, n);
      },
    });
    const ctx = { cluster: metadata(), coordinators: fake.coordinators, requestTimeoutMs: 2_000 };
    await commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: 1n }]);
    expect(fake.node(1).calls).toHaveLength(1);
    expect(fake.node(2).calls).toHaveLength(1);
  });

  it('throws the shared error when every partition is refused alike', async () => {
    const { ctx } = setup(answering(() => 25));
    const err = await commitOffsets(ctx, 'g', [
      { topic: 'a', partition: 0, offset: 1n },
      { topic: 'a', partition: 1, offset: 1n },
    ]).catch((e) => e);
    expect(err.errorName).toBe('UNKNOWN_MEMBER_ID');
    expect(err.context.groupId).toBe('g');
  });

  it('throws PartitionErrors when partitions fail differently', async () => {
    const { ctx } = setup(answering((_t, p) => (p === 0 ? 0 : p === 1 ? 12 : 29)));
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
    const { ctx, node } = setup(answering(() => 0));
    await expect(commitOffsets(ctx, '', [])).rejects.toThrow(TypeError);
    await expect(commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: -1n }])).rejects.toThrow(RangeError);
    await expect(
      commitOffsets(ctx, 'g', [{ topic: 'a', partition: 0, offset: 1 as unknown as bigint }]),
    ).rejects.toThrow(RangeError);
    expect(node(1).calls).toHaveLength(0);
  });

  it('settles on time with an abort signal while the coordinator keeps loading', async () => {
    const { ctx } = setup(answering(() => 14));
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
