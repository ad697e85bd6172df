import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OffsetCommit } from '../../../protocol/apis/offset-commit.js';
import { OffsetFetch } from '../../../protocol/apis/offset-fetch.js';
import type { Client } from '../../../src/client.js';
import { CallTimeoutError } from '../../../src/cluster/deadline.js';
import { Connection } from '../../../src/network/connection.js';
import { RequestAbortedError } from '../../../src/network/errors.js';
import { describeWithKafkaTool, JavaClients } from './java-helper.js';
import { newClient, newTopic, offsetMap, targets, uniqueGroup } from './setup.js';

let java: JavaClients;
beforeAll(async () => {
  java = await JavaClients.start();
}, 120_000);
afterAll(async () => {
  await java?.close();
});

describe.each(targets())('committed offsets against $label', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'commit', 3);
    // 5 records in partition 0, 3 in partition 1, none in partition 2.
    const records = [0, 0, 0, 0, 0, 1, 1, 1].map((partition, i) => ({ partition, timestamp: 1_000 + i }));
    await java.produce(target.bootstrap, topic, records);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("commits offsets that Kafka's Java AdminClient reports exactly, epochs and metadata included", async () => {
    const group = uniqueGroup('tm-commit');
    await client.offsets.commit(group, [
      { topic, partition: 0, offset: 3n, leaderEpoch: 0, metadata: 'from tidemark' },
      { topic, partition: 1, offset: 1n },
      { topic, partition: 2, offset: 0n },
    ]);
    expect(sortJava(await java.listGroupOffsets(target.bootstrap, group))).toEqual([
      { topic, partition: 0, offset: '3', leaderEpoch: 0, metadata: 'from tidemark' },
      { topic, partition: 1, offset: '1', leaderEpoch: -1, metadata: '' },
      { topic, partition: 2, offset: '0', leaderEpoch: -1, metadata: '' },
    ]);
    // A later commit replaces only the partitions it names.
    await client.offsets.commit(group, [{ topic, partition: 0, offset: 5n, leaderEpoch: 0 }]);
    const java2 = await java.listGroupOffsets(target.bootstrap, group);
    expect(offsetMap(java2)).toEqual({ [`${topic}-0`]: '5', [`${topic}-1`]: '1', [`${topic}-2`]: '0' });
    expect(offsetMap(await client.offsets.committed(group))).toEqual(offsetMap(java2));
  });

  it('reads what a Java consumer committed, with the lag kafka-consumer-groups prints', async () => {
    const group = uniqueGroup('java-commit');
    const committedByJava = await java.consumeAndCommit(target.bootstrap, group, topic, 6);
    const ours = await client.offsets.committed(group);
    expect(offsetMap(ours)).toEqual(offsetMap(committedByJava));
    for (const o of ours) {
      const j = committedByJava.find((c) => c.partition === o.partition)!;
      expect(o.leaderEpoch ?? -1).toBe(j.leaderEpoch);
      expect(o.metadata).toBe('java');
    }

    const described = await client.groups.describeGroupOffsets(group);
    const tool = await describeWithKafkaTool(target.bootstrap, group);
    const dash = (v: bigint | null) => (v === null ? '-' : String(v));
    const rows = described.partitions.map((p) => ({
      topic: p.topic,
      partition: p.partition,
      currentOffset: dash(p.committedOffset),
      logEndOffset: dash(p.logEndOffset),
      lag: dash(p.lag),
    }));
    expect(rows).toEqual(
      tool
        .map(({ topic: t, partition, currentOffset, logEndOffset, lag }) => ({
          topic: t,
          partition,
          currentOffset,
          logEndOffset,
          lag,
        }))
        .sort((a, b) => a.partition - b.partition),
    );
    expect(described.group.state).toBe('Empty');
    expect(described.totalLag).toBe(2n);
  });

  it('commits and reads at every version the broker accepts', async () => {
    const connection = await client.cluster.anyConnection();
    const commitRange = connection.apiVersions!.range(OffsetCommit.key)!;
    const fetchRange = connection.apiVersions!.range(OffsetFetch.key)!;
    const group = uniqueGroup('versions');
    const partitions = [{ topic, partition: 0 }];
    for (let v = commitRange.min; v <= commitRange.max; v++) {
      const commit = client.offsets.commit(group, [{ topic, partition: 0, offset: BigInt(v) }], { version: v });
      if (v === 0) {
        // Kafka 3.9 still lists v0, which stored offsets in ZooKeeper; a KRaft broker refuses it per partition.
        await expect(commit).rejects.toMatchObject({ errorName: 'UNSUPPORTED_VERSION' });
        continue;
      }
      await commit;
      for (let f = Math.max(1, fetchRange.min); f <= fetchRange.max; f++) {
        const [read] = await client.offsets.committed(group, partitions, { version: f });
        expect([v, f, read.offset]).toEqual([v, f, BigInt(v)]);
      }
    }
  });

  it('reads several groups in one OffsetFetch request', async () => {
    const groups = [uniqueGroup('multi-a'), uniqueGroup('multi-b'), uniqueGroup('multi-c')];
    await Promise.all(groups.map((g, i) => client.offsets.commit(g, [{ topic, partition: 1, offset: BigInt(i + 1) }])));
    const spy = vi.spyOn(Connection.prototype, 'request');
    try {
      const result = await client.offsets.committedOfGroups(
        groups.map((groupId) => ({ groupId })),
        { requireStable: true },
      );
      expect(groups.map((g) => result.get(g)?.[0].offset)).toEqual([1n, 2n, 3n]);
      expect(spy.mock.calls.filter(([api]) => api === OffsetFetch)).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('commits as a live member of a classic group, fenced by its generation', async () => {
    const group = uniqueGroup('member');
    const member = `member-${group}`;
    try {
      const info = await java.join(target.bootstrap, group, topic, member);
      const generationIdOrMemberEpoch = info.generationId;
      await client.offsets.commit(group, [{ topic, partition: 0, offset: 4n }], {
        member: { memberId: info.memberId, generationIdOrMemberEpoch },
      });
      expect(offsetMap(await java.listGroupOffsets(target.bootstrap, group))).toEqual({ [`${topic}-0`]: '4' });
      const stale = await client.offsets
        .commit(group, [{ topic, partition: 0, offset: 2n }], {
          member: { memberId: info.memberId, generationIdOrMemberEpoch: generationIdOrMemberEpoch + 7 },
        })
        .catch((e) => e);
      expect(stale.errorName).toBe('ILLEGAL_GENERATION');
      const outsider = await client.offsets.commit(group, [{ topic, partition: 0, offset: 2n }]).catch((e) => e);
      expect(outsider.errorName).toBe('UNKNOWN_MEMBER_ID');
      expect(offsetMap(await client.offsets.committed(group))).toEqual({ [`${topic}-0`]: '4' });
    } finally {
      await java.leave(member);
    }
  });

  it.runIf(target.major >= 4)('commits as a live KIP-848 member, fenced by its member epoch', async () => {
    const group = uniqueGroup('member-848');
    const member = `member-${group}`;
    try {
      await java.join(target.bootstrap, group, topic, member, { protocol: 'consumer' });
      const info = await java.memberInfo(member);
      await client.offsets.commit(group, [{ topic, partition: 1, offset: 2n }], {
        member: { memberId: info.memberId, generationIdOrMemberEpoch: info.generationId },
      });
      expect(offsetMap(await client.offsets.committed(group))).toEqual({ [`${topic}-1`]: '2' });
      const stale = await client.offsets
        .commit(group, [{ topic, partition: 1, offset: 1n }], {
          member: { memberId: info.memberId, generationIdOrMemberEpoch: info.generationId + 5 },
        })
        .catch((e) => e);
      expect(stale.errorName).toMatch(/STALE_MEMBER_EPOCH|FENCED_MEMBER_EPOCH/);
    } finally {
      await java.leave(member);
    }
  });

  it('deletes committed offsets, refusing topics a live member subscribes to', async () => {
    const group = uniqueGroup('offset-delete');
    await client.offsets.commit(group, [
      { topic, partition: 0, offset: 1n },
      { topic, partition: 1, offset: 1n },
    ]);
    await client.groups.deleteOffsets(group, [{ topic, partition: 0 }]);
    expect(offsetMap(await client.offsets.committed(group))).toEqual({ [`${topic}-1`]: '1' });

    const member = `member-${group}`;
    try {
      await java.join(target.bootstrap, group, topic, member);
      const err = await client.groups.deleteOffsets(group, [{ topic, partition: 1 }]).catch((e) => e);
      expect(err.errorName).toBe('GROUP_SUBSCRIBED_TO_TOPIC');
    } finally {
      await java.leave(member);
    }
  });

  it('lists, describes and deletes groups', async () => {
    const group = uniqueGroup('admin');
    const member = `member-${group}`;
    try {
      await java.join(target.bootstrap, group, topic, member, { clientId: 'describe-me' });
      const [described] = await client.groups.describeGroups([group]);
      expect(described).toMatchObject({ groupId: group, state: 'Stable', protocolType: 'consumer', type: 'classic' });
      expect(described.members).toHaveLength(1);
      expect(described.members![0].clientId).toBe('describe-me');
      expect(described.members![0].subscribedTopics).toEqual([topic]);
      expect(described.members![0].assignment.map((p) => p.partition).sort()).toEqual([0, 1, 2]);

      const listed = await client.groups.listGroups();
      expect(listed.find((g) => g.groupId === group)).toMatchObject({ protocolType: 'consumer', state: 'Stable' });
      const onlyEmpty = await client.groups.listGroups({ states: ['Empty'] });
      expect(onlyEmpty.some((g) => g.groupId === group)).toBe(false);

      const busy = await client.groups.deleteGroups([group]).catch((e) => e);
      expect(busy.errorName).toBe('NON_EMPTY_GROUP');
    } finally {
      await java.leave(member);
    }
    await client.groups.deleteGroups([group]);
    const [gone] = await client.groups.describeGroups([group]);
    expect(gone.state).toBe('Dead');
    const missing = await client.groups.deleteGroups([group]).catch((e) => e);
    expect(missing.errorName).toBe('GROUP_ID_NOT_FOUND');
  });

  it('settles with a typed error when aborted or out of time', async () => {
    const group = uniqueGroup('settle');
    const ac = new AbortController();
    ac.abort(new Error('shutting down'));
    const aborted = await client.offsets
      .commit(group, [{ topic, partition: 0, offset: 1n }], { signal: ac.signal })
      .catch((e) => e);
    expect(aborted).toBeInstanceOf(RequestAbortedError);
    const late = await client.offsets.committed(group, null, { timeoutMs: 0 }).catch((e) => e);
    expect(late).toBeInstanceOf(CallTimeoutError);
    expect(await client.offsets.committed(group)).toEqual([]);
  });
});

function sortJava<T extends { partition: number }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.partition - b.partition);
}
