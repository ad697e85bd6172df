/**
 * OffsetCommit / OffsetFetch / OffsetDelete: round trips with metadata and leader epoch, the errors for unknown
 * topics and partitions, several groups in one OffsetFetch (v8+), generation and member-epoch fencing, and
 * OffsetDelete on an empty group against one whose member is subscribed to the topic.
 */
import { randomUUID } from 'node:crypto';
import { ConsumerGroupHeartbeat } from '../../../protocol/apis/consumer-group-heartbeat.js';
import { OffsetCommit } from '../../../protocol/apis/offset-commit.js';
import { OffsetDelete } from '../../../protocol/apis/offset-delete.js';
import { OffsetFetch } from '../../../protocol/apis/offset-fetch.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { errorName, type Probe } from '../probe.js';
import type { Check } from '../types.js';
import { joinAlone, leave } from './classic-group.js';

const GUIDE = 'Kafka protocol guide, OffsetCommit and OffsetFetch APIs';
/** Topic ids replace names from v10 of both APIs; the checks name topics, which every version up to 9 does. */
const BY_NAME_MAX = 9;

export interface Committer {
  generationIdOrMemberEpoch?: number;
  memberId?: string;
  groupInstanceId?: string | null;
}

export async function commit(
  probe: Probe,
  groupId: string,
  topic: string,
  partition: number,
  offset: bigint,
  who: Committer = {},
  metadata = '',
): Promise<number> {
  const coordinator = await probe.suite.coordinator(probe, groupId);
  const version = Math.min(coordinator.versionFor(OffsetCommit), BY_NAME_MAX);
  const response = await probe.suite.retryingCoordinator(
    () =>
      probe.send(
        coordinator,
        OffsetCommit,
        {
          groupId,
          generationIdOrMemberEpoch: who.generationIdOrMemberEpoch ?? -1,
          memberId: who.memberId ?? '',
          groupInstanceId: who.groupInstanceId ?? null,
          retentionTimeMs: -1n,
          topics: [
            {
              name: topic,
              partitions: [
                {
                  partitionIndex: partition,
                  committedOffset: offset,
                  committedLeaderEpoch: 0,
                  committedMetadata: metadata,
                },
              ],
            },
          ],
        },
        { version },
      ),
    (answer) => answer.topics[0]?.partitions[0]?.errorCode ?? 0,
  );
  const p = response.topics[0]?.partitions[0];
  if (p === undefined) probe.fail('the OffsetCommit answer names no partition');
  return p.errorCode;
}

interface Fetched {
  committedOffset: bigint;
  committedLeaderEpoch: number;
  metadata: string | null;
  errorCode: number;
}

/** OffsetFetch of several groups (v8+: one request), each for the partitions given. */
export async function fetchGroups(
  probe: Probe,
  groups: readonly string[],
  topic: string,
  partitions: number[],
  requireStable = false,
): Promise<Map<string, Fetched[]>> {
  const coordinator = await probe.suite.coordinator(probe, groups[0]);
  const version = Math.min(coordinator.versionFor(OffsetFetch), BY_NAME_MAX);
  const out = new Map<string, Fetched[]>();
  if (version >= 8) {
    const response = await probe.send(
      coordinator,
      OffsetFetch,
      {
        groups: groups.map((groupId) => ({
          groupId,
          memberId: null,
          memberEpoch: -1,
          topics: [{ name: topic, partitionIndexes: partitions }],
        })),
        requireStable,
      },
      { version },
    );
    for (const g of response.groups) {
      if (g.errorCode !== 0) probe.fail(`OffsetFetch for group ${g.groupId} answered ${errorName(g.errorCode)}`);
      out.set(
        g.groupId,
        g.topics.flatMap((t) => t.partitions),
      );
    }
  } else {
    for (const groupId of groups) {
      const response = await probe.send(coordinator, OffsetFetch, {
        groupId,
        topics: [{ name: topic, partitionIndexes: partitions }],
        requireStable,
      });
      out.set(
        groupId,
        response.topics.flatMap((t) => t.partitions),
      );
    }
  }
  return out;
}

export const offsetCommitChecks: Check[] = [
  {
    id: 'offset-commit.round-trip',
    area: 'offset-commit',
    expected: 'a committed offset, leader epoch and metadata come back unchanged from OffsetFetch',
    spec: GUIDE,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('commits', 2);
      const groupId = probe.suite.group('round-trip');
      probe.errorCode(await commit(probe, groupId, topic, 1, 42n, {}, 'conformance'), 0, 'OffsetCommit');
      const fetched = (await fetchGroups(probe, [groupId], topic, [1])).get(groupId)?.[0];
      if (fetched === undefined) probe.fail('OffsetFetch returned no partition');
      probe.errorCode(fetched.errorCode, 0, 'OffsetFetch partition');
      probe.equal(fetched.committedOffset, 42n, 'committed offset');
      probe.equal(fetched.metadata, 'conformance', 'committed metadata');
      if (probe.suite.versions.range(OffsetFetch.key)!.max >= 5) {
        probe.equal(fetched.committedLeaderEpoch, 0, 'committed leader epoch');
      }
      return 'offset 42, epoch 0 and metadata round-trip';
    },
  },
  {
    id: 'offset-commit.unknown-topic',
    area: 'offset-commit',
    expected: 'a commit for a topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION',
    spec: GUIDE,
    async run(probe: Probe) {
      const code = await commit(probe, probe.suite.group('unknown-topic'), `${probe.suite.prefix}-absent`, 0, 1n);
      probe.errorCode(code, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'commit to an unknown topic');
      return 'UNKNOWN_TOPIC_OR_PARTITION';
    },
  },
  {
    id: 'offset-commit.out-of-range-partition',
    area: 'offset-commit',
    expected: 'a commit for a partition the topic does not have is UNKNOWN_TOPIC_OR_PARTITION',
    spec: GUIDE,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('commits', 2);
      const code = await commit(probe, probe.suite.group('bad-partition'), topic, 7, 1n);
      probe.errorCode(code, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'commit to partition 7 of a 2-partition topic');
      return 'UNKNOWN_TOPIC_OR_PARTITION';
    },
  },
  {
    id: 'offset-commit.fetch-several-groups',
    area: 'offset-commit',
    expected: 'OffsetFetch v8+ answers several groups in one request, each with its own offsets',
    spec: 'KIP-709',
    async run(probe: Probe) {
      probe.requireVersion(OffsetFetch, 8, 'several groups in one OffsetFetch');
      const topic = await probe.suite.topic('commits', 2);
      const g1 = probe.suite.group('multi-1');
      const g2 = probe.suite.group('multi-2');
      probe.errorCode(await commit(probe, g1, topic, 0, 11n), 0, `commit for ${g1}`);
      probe.errorCode(await commit(probe, g2, topic, 0, 22n), 0, `commit for ${g2}`);
      const fetched = await fetchGroups(probe, [g1, g2], topic, [0]);
      probe.equal(fetched.get(g1)?.[0]?.committedOffset, 11n, `offset of ${g1}`);
      probe.equal(fetched.get(g2)?.[0]?.committedOffset, 22n, `offset of ${g2}`);
      return 'two groups, offsets 11 and 22';
    },
  },
  {
    id: 'offset-commit.generation-fencing',
    area: 'offset-commit',
    expected:
      'in a classic group, a commit with a wrong generation is ILLEGAL_GENERATION and one from an unknown member UNKNOWN_MEMBER_ID',
    spec: GUIDE,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('commits', 2);
      const groupId = probe.suite.group('fencing');
      const member = await joinAlone(probe, groupId);
      try {
        const who = { generationIdOrMemberEpoch: member.generationId, memberId: member.memberId };
        probe.errorCode(await commit(probe, groupId, topic, 0, 5n, who), 0, 'commit by the current member');
        const stale = { ...who, generationIdOrMemberEpoch: member.generationId + 1 };
        probe.errorCode(
          await commit(probe, groupId, topic, 0, 6n, stale),
          ErrorCode.ILLEGAL_GENERATION,
          'wrong generation',
        );
        const stranger = { ...who, memberId: `tidemark-${randomUUID()}` };
        probe.errorCode(
          await commit(probe, groupId, topic, 0, 6n, stranger),
          ErrorCode.UNKNOWN_MEMBER_ID,
          'unknown member',
        );
        return 'ILLEGAL_GENERATION and UNKNOWN_MEMBER_ID';
      } finally {
        await leave(probe, member).catch(() => {});
      }
    },
  },
  {
    id: 'offset-commit.member-epoch-fencing',
    area: 'offset-commit',
    expected:
      'in a consumer-protocol group, a commit with a member epoch other than the member’s (above or below) is STALE_MEMBER_EPOCH',
    spec: 'KIP-848 (OffsetCommit v9, OffsetFetch v9)',
    async run(probe: Probe) {
      probe.requireVersion(OffsetCommit, 9, 'member-epoch commits');
      const version = probe.requireVersion(ConsumerGroupHeartbeat, 0, 'a consumer-protocol group');
      const topic = await probe.suite.topic('commits', 2);
      const groupId = probe.suite.group('epoch-fencing');
      const coordinator = await probe.suite.coordinator(probe, groupId);
      const memberId = version >= 1 ? randomUUID() : '';
      const joined = await probe.send(coordinator, ConsumerGroupHeartbeat, {
        groupId,
        memberId,
        memberEpoch: 0,
        rebalanceTimeoutMs: 10_000,
        subscribedTopicNames: [topic],
        topicPartitions: [],
      });
      if (joined.errorCode !== 0) {
        probe.skip(
          `ConsumerGroupHeartbeat answered ${errorName(joined.errorCode)}: the consumer protocol is not enabled`,
        );
      }
      const who = { memberId: joined.memberId ?? memberId, generationIdOrMemberEpoch: joined.memberEpoch };
      try {
        probe.errorCode(await commit(probe, groupId, topic, 0, 5n, who), 0, 'commit with the current member epoch');
        const ahead = { ...who, generationIdOrMemberEpoch: joined.memberEpoch + 1 };
        probe.errorCode(await commit(probe, groupId, topic, 0, 6n, ahead), ErrorCode.STALE_MEMBER_EPOCH, 'epoch ahead');
        const behind = { ...who, generationIdOrMemberEpoch: joined.memberEpoch - 1 };
        probe.errorCode(
          await commit(probe, groupId, topic, 0, 6n, behind),
          ErrorCode.STALE_MEMBER_EPOCH,
          'epoch behind',
        );
        const stranger = { ...who, memberId: randomUUID() };
        probe.errorCode(
          await commit(probe, groupId, topic, 0, 6n, stranger),
          ErrorCode.UNKNOWN_MEMBER_ID,
          'unknown member',
        );
        const fetchAs = async (memberId: string, memberEpoch: number) => {
          const response = await probe.send(
            coordinator,
            OffsetFetch,
            {
              groups: [{ groupId, memberId, memberEpoch, topics: [{ name: topic, partitionIndexes: [0] }] }],
              requireStable: false,
            },
            { version: 9 },
          );
          return response.groups[0]?.errorCode ?? -1;
        };
        if (probe.suite.versions.range(OffsetFetch.key)!.max >= 9) {
          probe.errorCode(await fetchAs(who.memberId, joined.memberEpoch), 0, 'OffsetFetch v9 as the member');
          probe.errorCode(
            await fetchAs(who.memberId, joined.memberEpoch - 1),
            ErrorCode.STALE_MEMBER_EPOCH,
            'OffsetFetch v9 with an old epoch',
          );
          probe.errorCode(
            await fetchAs(randomUUID(), joined.memberEpoch),
            ErrorCode.UNKNOWN_MEMBER_ID,
            'OffsetFetch v9 as an unknown member',
          );
        }
        return 'STALE_MEMBER_EPOCH ahead and behind, UNKNOWN_MEMBER_ID for a stranger; OffsetFetch v9 alike';
      } finally {
        await probe
          .send(coordinator, ConsumerGroupHeartbeat, { groupId, memberId: who.memberId, memberEpoch: -1 })
          .catch(() => {});
      }
    },
  },
  {
    id: 'offset-commit.offset-delete',
    area: 'offset-commit',
    expected:
      'OffsetDelete removes an empty group’s offsets, and refuses with GROUP_SUBSCRIBED_TO_TOPIC while a member subscribes to the topic',
    spec: 'KIP-496',
    async run(probe: Probe) {
      probe.requireVersion(OffsetDelete, 0, 'OffsetDelete');
      const topic = await probe.suite.topic('commits', 2);
      const groupId = probe.suite.group('offset-delete');
      probe.errorCode(await commit(probe, groupId, topic, 0, 9n), 0, 'commit to the empty group');
      const coordinator = await probe.suite.coordinator(probe, groupId);
      const remove = async () => {
        const response = await probe.send(coordinator, OffsetDelete, {
          groupId,
          topics: [{ name: topic, partitions: [{ partitionIndex: 0 }] }],
        });
        if (response.errorCode !== 0) return response.errorCode;
        return response.topics[0]?.partitions[0]?.errorCode ?? -1;
      };
      const member = await joinAlone(probe, groupId, { topics: [topic] });
      try {
        probe.errorCode(await remove(), ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC, 'OffsetDelete while a member subscribes');
      } finally {
        await leave(probe, member).catch(() => {});
      }
      probe.errorCode(await remove(), 0, 'OffsetDelete on the empty group');
      const after = (await fetchGroups(probe, [groupId], topic, [0])).get(groupId)?.[0];
      probe.equal(after?.committedOffset, -1n, 'committed offset after OffsetDelete');
      return 'GROUP_SUBSCRIBED_TO_TOPIC while live, deleted once empty';
    },
  },
];
