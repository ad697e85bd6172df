import { describe, expect, it } from 'vitest';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { fetchCommittedOffsets } from '../../../src/commit/offset-fetch.js';
import type { CommitCluster } from '../../../src/commit/types.js';
import { GroupErrors } from '../../../src/coordinator/group-errors.js';
import { UnsupportedVersionError } from '../../../src/network/errors.js';
import { FakeKafka } from '../../fake-kafka/cluster.js';
import { coordinatorsView } from '../../fake-kafka/views.js';

const FAST = { initialMs: 1, maxMs: 5 };
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

/** A v8+ answer in which every group has committed a/0 = 5 unless `groupError` says otherwise. */
function groupsAnswer(body: { groups: { groupId: string }[] }, version: number, groupError = (_g: string) => 0) {
  return {
    response: {
      throttleTimeMs: 0,
      groups: body.groups.map((g) => ({
        groupId: g.groupId,
        errorCode: groupError(g.groupId),
        topics: [{ ...(version >= 10 ? { topicId: ID_A } : { name: 'a' }), partitions: [partition(0, 5n)] }],
      })),
    },
  };
}

/**
 * Brokers 1 and 2 of the fake cluster with topic a (2 partitions), each group's coordinator named by `nodeOf`;
 * `commit(group, offset)` stores a/0 as the group's committed offset (leader epoch 2).
 */
function setup(versions: Record<string, number> = {}, nodeOf: (g: string) => number = () => 1) {
  const kafka = new FakeKafka([1, 2]);
  kafka.createTopic('a', 2);
  Object.assign(kafka.versions, versions);
  kafka.coordinatorOf = nodeOf;
  const commit = (groupId: string, offset = 5n) =>
    kafka.group(groupId).committed.set('a/0', { offset, leaderEpoch: 2, metadata: '' });
  const fetches = (node?: number) => kafka.requests('OffsetFetch', node);
  const ctx = { cluster, coordinators: coordinatorsView(kafka), requestTimeoutMs: 2_000, backoff: FAST };
  return { kafka, ctx, commit, fetches };
}

describe('fetchCommittedOffsets', () => {
  it('asks for several groups in one request per coordinator from v8', async () => {
    const { ctx, commit, fetches } = setup({}, (g) => (g === 'g3' ? 2 : 1));
    for (const g of ['g1', 'g2', 'g3']) commit(g);
    const result = await fetchCommittedOffsets(ctx, [{ groupId: 'g1' }, { groupId: 'g2' }, { groupId: 'g3' }], {
      requireStable: true,
    });
    expect(fetches(1)).toHaveLength(1);
    expect(fetches(1)[0].body.groups.map((g: { groupId: string }) => g.groupId)).toEqual(['g1', 'g2']);
    expect(fetches(1)[0].body.requireStable).toBe(true);
    expect(fetches(2)).toHaveLength(1);
    expect(result.get('g3')).toEqual([{ topic: 'a', partition: 0, offset: 5n, leaderEpoch: 2, metadata: '' }]);
  });

  it('asks one group per request before v8', async () => {
    const { ctx, commit, fetches } = setup({ OffsetFetch: 7 });
    commit('g1', 2n);
    commit('group2', 6n);
    const result = await fetchCommittedOffsets(ctx, [{ groupId: 'g1' }, { groupId: 'group2' }]);
    expect(fetches().map((r) => r.body.groupId)).toEqual(['g1', 'group2']);
    expect(result.get('g1')?.[0].offset).toBe(2n);
    expect(result.get('group2')?.[0].offset).toBe(6n);
  });

  it('names topics by id at v10 when partitions are given, and maps the answer back to names', async () => {
    const { ctx, commit, fetches } = setup({ OffsetFetch: 10 });
    commit('g');
    const result = await fetchCommittedOffsets(ctx, [
      {
        groupId: 'g',
        partitions: [
          { topic: 'a', partition: 0 },
          { topic: 'a', partition: 1 },
        ],
      },
    ]);
    expect(fetches()[0].version).toBe(10);
    expect(fetches()[0].body.groups[0].topics[0]).toMatchObject({ topicId: ID_A, partitionIndexes: [0, 1] });
    // Partition 1 was asked for and has no commit: it comes back with a null offset.
    expect(result.get('g')).toEqual([
      { topic: 'a', partition: 0, offset: 5n, leaderEpoch: 2, metadata: '' },
      { topic: 'a', partition: 1, offset: null, leaderEpoch: null, metadata: null },
    ]);
  });

  it('reads every committed partition by name (v9) even where v10 is offered', async () => {
    const { ctx, commit, fetches } = setup({ OffsetFetch: 10 });
    commit('g');
    const result = await fetchCommittedOffsets(ctx, [{ groupId: 'g' }]);
    expect(fetches()[0].version).toBe(9);
    expect(fetches()[0].body.groups[0].topics).toBeNull();
    expect(result.get('g')).toEqual([{ topic: 'a', partition: 0, offset: 5n, leaderEpoch: 2, metadata: '' }]);
  });

  it('retries while offsets are unstable or the coordinator is loading', async () => {
    const { kafka, ctx, commit, fetches } = setup();
    commit('g');
    let n = 0;
    kafka.control(
      'OffsetFetch',
      ({ version, body }) => {
        if (++n === 1) return groupsAnswer(body, version, () => 14);
        const unstable = { groupId: 'g', errorCode: 0, topics: [{ name: 'a', partitions: [partition(0, -1n, 88)] }] };
        return { response: { throttleTimeMs: 0, groups: [unstable] } };
      },
      { times: 2 },
    );
    const result = await fetchCommittedOffsets(ctx, [{ groupId: 'g' }], { requireStable: true });
    expect(result.get('g')?.[0].offset).toBe(5n);
    expect(fetches()).toHaveLength(3);
  });

  it('refuses requireStable before v7 and fetch-all before v2', async () => {
    const v6 = setup({ OffsetFetch: 6 });
    await expect(fetchCommittedOffsets(v6.ctx, [{ groupId: 'g' }], { requireStable: true })).rejects.toBeInstanceOf(
      UnsupportedVersionError,
    );
    const v1 = setup({ OffsetFetch: 1 });
    await expect(fetchCommittedOffsets(v1.ctx, [{ groupId: 'g' }])).rejects.toThrow(/OffsetFetch v2\+/);
    expect([...v6.fetches(), ...v1.fetches()]).toHaveLength(0);
  });

  it('throws GroupErrors naming each failed group, with the others results', async () => {
    const { kafka, ctx } = setup();
    kafka.control('OffsetFetch', ({ version, body }) => groupsAnswer(body, version, (g) => (g === 'ok' ? 0 : 30)));
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
