import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../../../src/cluster/backoff.js';
import { buildParts, type ConsumerParts } from '../../../../src/consumer/consumer-parts.js';
import type { GroupMembership, RebalanceListener } from '../../../../src/consumer/group/membership.js';
import { groupListener } from '../../../../src/consumer/group-listener.js';
import type { Coordinators } from '../../../../src/coordinator/coordinators.js';
import { MemoryOffsetStore } from '../../../../src/offsets/memory-offset-store.js';
import type { CommitOptions, OffsetCommit } from '../../../../src/offsets/offset-store.js';
import { FakeKafka } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';

class RecordingStore extends MemoryOffsetStore {
  readonly commits: { offsets: OffsetCommit[]; options?: CommitOptions }[] = [];
  override async commit(group: string, offsets: readonly OffsetCommit[], options?: CommitOptions): Promise<void> {
    this.commits.push({ offsets: [...offsets], options });
    return super.commit(group, offsets, options);
  }
}

let parts: ConsumerParts | undefined;
afterEach(async () => {
  await parts?.fetcher.close();
  parts = undefined;
});

function setUp(user: RebalanceListener = {}, revokeTimeoutMs = 5_000, events: [string, unknown][] = []) {
  const kafka = new FakeKafka([1]);
  kafka.createTopic('t', 2);
  kafka.append('t', 0, 20);
  kafka.append('t', 1, 20);
  const store = new RecordingStore();
  const membership = {
    commitContext: () => ({
      groupId: 'g',
      memberId: 'm-1',
      generationId: 5,
      groupInstanceId: null,
    }),
    notePoll: () => {},
    requestRejoin: () => {},
  } as unknown as GroupMembership;
  parts = buildParts(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    { groupId: 'g', offsetStore: store, autoOffsetReset: 'earliest', fetchMaxWaitMs: 10, revokeTimeoutMs },
    30_000,
    {
      emit: (name, payload) => void events.push([name, payload]),
      listens: () => false,
      membership: () => membership,
      isClosed: () => false,
      isLeaving: () => false,
    },
  );
  const listener = groupListener({ ...parts.listenerContext(), groupId: 'g', user });
  return { parts, listener, store };
}

const both = [
  { topic: 't', partition: 0 },
  { topic: 't', partition: 1 },
];

describe('the rebalance listener wrapper', () => {
  it('assigned: partitions get states before the application hears of them', async () => {
    const seen: number[] = [];
    const { parts, listener } = setUp({ onAssigned: () => void seen.push(parts.positions.size) });
    await listener.onAssigned!(both);
    expect(seen).toEqual([2]);
    const batch = await parts.delivery.next(AbortSignal.timeout(2_000));
    expect(batch?.records.length).toBeGreaterThan(0);
  });

  it('revoked: waits for the batch in hand, commits what was processed under the generation, then lets go', async () => {
    const order: string[] = [];
    const { parts, listener, store } = setUp({ onRevoked: () => void order.push('application onRevoked') });
    await listener.onAssigned!(both);
    const batch = (await parts.delivery.next(AbortSignal.timeout(2_000)))!;
    const revoked = { topic: 't', partition: batch.partition };
    let settled = false;
    const revoking = Promise.resolve(listener.onRevoked!([revoked])).then(() => {
      settled = true;
    });
    await sleep(50);
    expect(settled).toBe(false);
    expect(store.commits).toEqual([]);
    // The application finishes the batch (asks for the next one).
    parts.delivery.finish();
    order.push('batch finished');
    await revoking;
    expect(order).toEqual(['batch finished', 'application onRevoked']);
    expect(store.commits).toEqual([
      {
        offsets: [expect.objectContaining({ topic: 't', partition: batch.partition, offset: batch.nextOffset })],
        options: expect.objectContaining({
          generation: { groupId: 'g', generationId: 5, memberId: 'm-1', groupInstanceId: null },
        }),
      },
    ]);
    expect(parts.positions.get('t', batch.partition)).toBeUndefined();
    expect(parts.positions.get('t', 1 - batch.partition)).toBeDefined();
  });

  it('revoked: does not wait forever for an application that never finishes its batch, and says so', async () => {
    const events: [string, unknown][] = [];
    const { parts, listener, store } = setUp({}, 50, events);
    await listener.onAssigned!(both);
    const batch = (await parts.delivery.next(AbortSignal.timeout(2_000)))!;
    await listener.onRevoked!([{ topic: 't', partition: batch.partition }]);
    expect(parts.positions.get('t', batch.partition)).toBeUndefined();
    // A warning names the partition and the offset it is read again from (the batch's first record).
    const warnings = events.filter(([name]) => name === 'warning').map(([, w]) => w);
    expect(warnings).toEqual([
      expect.objectContaining({
        topic: 't',
        partition: batch.partition,
        message: expect.stringMatching(
          new RegExp(`^the revoke went on without the handler of t-${batch.partition} .*from offset 0\\)`),
        ),
      }),
    ]);
    // Committed at that first record, not past the unfinished batch.
    expect(store.commits.map((c) => c.offsets)).toEqual([
      [expect.objectContaining({ topic: 't', partition: batch.partition, offset: 0n })],
    ]);
  });

  it('revoked: a batch finished in time is no warning', async () => {
    const events: [string, unknown][] = [];
    const { parts, listener } = setUp({}, 5_000, events);
    await listener.onAssigned!(both);
    const batch = (await parts.delivery.next(AbortSignal.timeout(2_000)))!;
    const revoking = listener.onRevoked!([{ topic: 't', partition: batch.partition }]);
    parts.delivery.finish();
    await revoking;
    expect(events.filter(([name]) => name === 'warning')).toEqual([]);
  });

  it('lost: the partitions are dropped and nothing is committed', async () => {
    const lost: unknown[] = [];
    const { parts, listener, store } = setUp({ onLost: (tps) => void lost.push(tps) });
    await listener.onAssigned!(both);
    await parts.delivery.next(AbortSignal.timeout(2_000));
    parts.delivery.finish();
    await listener.onLost!(both);
    expect(store.commits).toEqual([]);
    expect(parts.positions.size).toBe(0);
    expect(lost).toEqual([both]);
  });
});
