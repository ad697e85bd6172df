import { describe, expect, it } from 'vitest';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { fetchCommittedOffsets } from '../../../src/commit/offset-fetch.js';
import type { CommitCluster } from '../../../src/commit/types.js';
import { GroupErrors } from '../../../src/coordinator/group-errors.js';
import { UnsupportedVersionError } from '../../../src/network/errors.js';
import type { Handler } from '../cluster/fake-connection.js';
import { FAST, fakeGroupCluster, findAnswer } from '../coordinator/fake-coordinators.js';

const ID_A = 'AAAAAAAAAAAAAAAAAAAAAQ';
const cluster: CommitCluster = {
  metadataCache: {
    async topic(name) {
      if (name !== 'a') throw kafkaError(3);
      return { name, topicId: ID_A, isInternal: false, partitions: [], error: undefined };
    },
    invalidate() {},
  },
};

const partition = (partitionIndex: number, committedOffset: bigint, errorCode = 0) => ({
  partitionIndex,
  committedOffset,
  committedLeaderEpoch: committedOffset >= 0n ? 2 : -1,
  metadata: '',
  errorCode,
});

/** v8+: every group has committed a/0 = 5 unless `groupError` says otherwise. */
function groupsAnswer(body: { groups: { groupId: string }[] }, version: number, groupError = (_g: string) => 0) {
  return {
    groups: body.groups.map((g) => ({
      groupId: g.groupId,
      errorCode: groupError(g.groupId),
      topics: [{ ...(version >= 10 ? { topicId: ID_A } : { name: 'a' }), partitions: [partition(0, 5n)] }],
    })),
  };
}

function setup(groupHandler: Handler, versions: Record<string, number> = {}, nodeOf: (g: string) => number = () => 1) {
  const fake = fakeGroupCluster({ findHandler: (_a, _v, body) => findAnswer(body, nodeOf), groupHandler, versions });
  return { ...fake, ctx: { cluster, coordinators: fake.coordinators, requestTimeoutMs: 2_000, backoff: FAST } };
}

describe('fetchCommittedOffsets', () => {
  it('asks for several groups in one request per coordinator from v8', async () => {
    const { ctx, node } = setup(
      (_a, v, body) => groupsAnswer(body, v),
      {},
      (g) => (g === 'g3' ? 2 : 1),
    );
    const result = await fetchCommittedOffsets(ctx, [{ groupId: 'g1' }, { groupId: 'g2' }, { groupId: 'g3' }], {
      requireStable: true,
    });
    expect(node(1).calls).toHaveLength(1);
    expect(node(1).calls[0].body.groups.map((g: { groupId: string }) => g.groupId)).toEqual(['g1', 'g2']);
    expect(node(1).calls[0].body.requireStable).toBe(true);
    expect(node(2).calls).toHaveLength(1);
    expect(result.get('g3')).toEqual([{ topic: 'a', partition: 0, offset: 5n, leaderEpoch: 2, metadata: '' }]);
  });

  it('asks one group per request before v8', async () => {
    const { ctx, node } = setup(
      (_a, _v, body) => ({
        errorCode: 0,
        topics: [{ name: 'a', partitions: [partition(0, BigInt(body.groupId.length))] }],
      }),
      { OffsetFetch: 7 },
    );
    const result = await fetchCommittedOffsets(ctx, [{ groupId: 'g1' }, { groupId: 'group2' }]);
    expect(node(1).calls.map((c) => c.body.groupId)).toEqual(['g1', 'group2']);
    expect(result.get('group2')?.[0].offset).toBe(6n);
  });

  it('names topics by id at v10 when partitions are given, and maps the answer back to names', async () => {
    const { ctx, node } = setup((_a, v, body) => groupsAnswer(body, v), { OffsetFetch: 10 });
    const result = await fetchCommittedOffsets(ctx, [
      {
        groupId: 'g',
        partitions: [
          { topic: 'a', partition: 0 },
          { topic: 'a', partition: 1 },
        ],
      },
    ]);
    expect(node(1).calls[0].version).toBe(10);
    expect(node(1).calls[0].body.groups[0].topics[0]).toMatchObject({ topicId: ID_A, partitionIndexes: [0, 1] });
    // Partition 1 was asked for and has no commit: it comes back with a null offset.
    expect(result.get('g')).toEqual([
      { topic: 'a', partition: 0, offset: 5n, leaderEpoch: 2, metadata: '' },
      { topic: 'a', partition: 1, offset: null, leaderEpoch: null, metadata: null },
    ]);
  });

  it('reads every committed partition by name (v9) even where v10 is offered', async () => {
    const { ctx, node } = setup((_a, v, body) => groupsAnswer(body, v), { OffsetFetch: 10 });
    await fetchCommittedOffsets(ctx, [{ groupId: 'g' }]);
    expect(node(1).calls[0].version).toBe(9);
    expect(node(1).calls[0].body.groups[0].topics).toBeNull();
  });

  it('retries while offsets are unstable or the coordinator is loading', async () => {
    let n = 0;
    const { ctx, node } = setup((_a, v, body) => {
      n++;
      if (n === 1) return groupsAnswer(body, v, () => 14);
      if (n === 2) {
        return {
          groups: [{ groupId: 'g', errorCode: 0, topics: [{ name: 'a', partitions: [partition(0, -1n, 88)] }] }],
        };
      }
      return groupsAnswer(body, v);
    });
    const result = await fetchCommittedOffsets(ctx, [{ groupId: 'g' }], { requireStable: true });
    expect(result.get('g')?.[0].offset).toBe(5n);
    expect(node(1).calls).toHaveLength(3);
  });

  it('refuses requireStable before v7 and fetch-all before v2', async () => {
    const v6 = setup(() => ({}), { OffsetFetch: 6 });
    await expect(fetchCommittedOffsets(v6.ctx, [{ groupId: 'g' }], { requireStable: true })).rejects.toBeInstanceOf(
      UnsupportedVersionError,
    );
    const v1 = setup(() => ({}), { OffsetFetch: 1 });
    await expect(fetchCommittedOffsets(v1.ctx, [{ groupId: 'g' }])).rejects.toThrow(/OffsetFetch v2\+/);
  });

  it('throws GroupErrors naming each failed group, with the others results', async () => {
    const { ctx } = setup((_a, v, body) => groupsAnswer(body, v, (g) => (g === 'ok' ? 0 : 30)));
    const err = await fetchCommittedOffsets(ctx, [{ groupId: 'ok' }, { groupId: 'x' }, { groupId: 'y' }]).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(GroupErrors);
    expect([...err.errors.keys()]).toEqual(['x', 'y']);
    expect(err.succeeded.get('ok')).toHaveLength(1);
    const single = await fetchCommittedOffsets(ctx, [{ groupId: 'x' }]).catch((e) => e);
    expect(single.errorName).toBe('GROUP_AUTHORIZATION_FAILED');
  });
});
