import { describe, expect, it } from 'vitest';
import type { CommitCluster } from '../../../../src/commit/types.js';
import { BrokerOffsetStore } from '../../../../src/consumer/broker-offset-store.js';
import { BackwardCommitError } from '../../../../src/offsets/errors.js';
import { fakeKafkaWith } from '../../../fake-kafka/cluster.js';
import { coordinatorsView } from '../../../fake-kafka/views.js';

/** Topic metadata without ids, so the commit APIs name topics (OffsetCommit/OffsetFetch v9 here). */
const cluster: CommitCluster = {
  metadataCache: {
    async topic(name) {
      return { name, topicId: undefined, isInternal: false, partitions: [], error: undefined };
    },
    invalidate() {},
  },
};

/**
 * A store over the fake cluster (topic t); `withMember` puts member-1 of generation 7 (static-1) in group g
 * (else the group is empty and takes standalone commits, as Kafka's does).
 */
function setUp(withMember = false) {
  const kafka = fakeKafkaWith({ t: 2 });
  if (withMember) kafka.group('g').classic.seat('member-1', 7, 'static-1');
  const store = new BrokerOffsetStore({
    cluster,
    coordinators: coordinatorsView(kafka),
    requestTimeoutMs: 2_000,
    backoff: { initialMs: 1, maxMs: 5 },
  });
  const requests = (api: string) => kafka.requests(api);
  return { store, stored: kafka.group('g').committed, requests };
}

describe('BrokerOffsetStore', () => {
  it('commits through OffsetCommit as the group member, and loads through OffsetFetch', async () => {
    const { store, requests } = setUp(true);
    await store.commit('g', [{ topic: 't', partition: 0, offset: 12n, leaderEpoch: 4 }], {
      generation: { groupId: 'g', generationId: 7, memberId: 'member-1', groupInstanceId: 'static-1' },
    });
    const [commit] = requests('OffsetCommit');
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
    expect(requests('OffsetFetch')[0].body.requireStable).toBe(true);
  });

  it('refuses to move an offset it knows of backwards, unless allowed', async () => {
    const { store, stored } = setUp();
    await store.commit('g', [{ topic: 't', partition: 0, offset: 30n }]);
    await expect(store.commit('g', [{ topic: 't', partition: 0, offset: 10n }])).rejects.toBeInstanceOf(
      BackwardCommitError,
    );
    expect(stored.get('t/0')?.offset).toBe(30n);
    await store.commit('g', [{ topic: 't', partition: 0, offset: 10n }], { allowBackward: true });
    expect(stored.get('t/0')?.offset).toBe(10n);
  });
});
