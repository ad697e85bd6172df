import { describe, expect, it } from 'vitest';
import type { CommitCluster } from '../../../../src/commit/types.js';
import { BrokerOffsetStore } from '../../../../src/consumer/broker-offset-store.js';
import { BackwardCommitError } from '../../../../src/offsets/errors.js';
import { FAST, fakeGroupCluster, findAnswer } from '../../coordinator/fake-coordinators.js';

/** Topic metadata without ids, so the commit APIs name topics (OffsetCommit/OffsetFetch v9 here). */
const cluster: CommitCluster = {
  metadataCache: {
    async topic(name) {
      return { name, topicId: undefined, isInternal: false, partitions: [], error: undefined };
    },
    invalidate() {},
  },
};

function setUp() {
  const stored = new Map<string, { offset: bigint; epoch: number }>();
  const fake = fakeGroupCluster({
    findHandler: (_a, _v, body) => findAnswer(body, 1),
    groupHandler: (api, _version, body) => {
      if (api === 'OffsetCommit') {
        for (const t of body.topics) {
          for (const p of t.partitions)
            stored.set(`${t.name}-${p.partitionIndex}`, { offset: p.committedOffset, epoch: p.committedLeaderEpoch });
        }
        return {
          topics: body.topics.map((t: any) => ({
            name: t.name,
            partitions: t.partitions.map((p: any) => ({ partitionIndex: p.partitionIndex, errorCode: 0 })),
          })),
        };
      }
      return {
        groups: body.groups.map((g: any) => ({
          groupId: g.groupId,
          errorCode: 0,
          topics: g.topics.map((t: any) => ({
            name: t.name,
            partitions: t.partitionIndexes.map((p: number) => {
              const s = stored.get(`${t.name}-${p}`);
              return {
                partitionIndex: p,
                committedOffset: s?.offset ?? -1n,
                committedLeaderEpoch: s?.epoch ?? -1,
                metadata: '',
                errorCode: 0,
              };
            }),
          })),
        })),
      };
    },
  });
  const store = new BrokerOffsetStore({
    cluster,
    coordinators: fake.coordinators,
    requestTimeoutMs: 2_000,
    backoff: FAST,
  });
  return { store, stored, node: fake.node };
}

describe('BrokerOffsetStore', () => {
  it('commits through OffsetCommit as the group member, and loads through OffsetFetch', async () => {
    const { store, node } = setUp();
    await store.commit('g', [{ topic: 't', partition: 0, offset: 12n, leaderEpoch: 4 }], {
      generation: { groupId: 'g', generationId: 7, memberId: 'member-1', groupInstanceId: 'static-1' },
    });
    const commit = node(1).calls.find((c) => c.api === 'OffsetCommit')!;
    expect(commit.body).toMatchObject({
      groupId: 'g',
      generationIdOrMemberEpoch: 7,
      memberId: 'member-1',
      groupInstanceId: 'static-1',
    });
    const loaded = await store.load('g', [
      { topic: 't', partition: 0 },
      { topic: 't', partition: 1 },
    ]);
    expect(loaded.get('t')?.get(0)).toMatchObject({ offset: 12n, leaderEpoch: 4 });
    expect(loaded.get('t')?.has(1)).toBe(true);
    expect(loaded.get('t')?.get(1)).toBeUndefined();
    // Consumers wait for pending transactional offsets (KIP-447).
    expect(node(1).calls.find((c) => c.api === 'OffsetFetch')!.body.requireStable).toBe(true);
  });

  it('refuses to move an offset it knows of backwards, unless allowed', async () => {
    const { store, stored } = setUp();
    await store.commit('g', [{ topic: 't', partition: 0, offset: 30n }]);
    await expect(store.commit('g', [{ topic: 't', partition: 0, offset: 10n }])).rejects.toBeInstanceOf(
      BackwardCommitError,
    );
    expect(stored.get('t-0')?.offset).toBe(30n);
    await store.commit('g', [{ topic: 't', partition: 0, offset: 10n }], { allowBackward: true });
    expect(stored.get('t-0')?.offset).toBe(10n);
  });
});
