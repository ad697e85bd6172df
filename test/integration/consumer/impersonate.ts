/**
 * Requests sent to a group coordinator in a member's name, from outside that member: how the fenced-commit tests
 * move the group on behind a consumer's back, as a coordinator would after a session timeout, a removal or a
 * rebalance the member has not seen yet. The consumer under test learns of it only from its own next request.
 */
import { ConsumerGroupHeartbeat } from '../../../protocol/apis/consumer-group-heartbeat.js';
import { JoinGroup } from '../../../protocol/apis/join-group.js';
import { LeaveGroup } from '../../../protocol/apis/leave-group.js';
import { SyncGroup } from '../../../protocol/apis/sync-group.js';
import type { Client } from '../../../src/client.js';
import { Deadline } from '../../../src/cluster/deadline.js';
import { encodeAssignment, encodeSubscription } from '../../../src/consumer/group/classic/consumer-protocol-codec.js';
import type { Connection } from '../../../src/network/connection.js';
import type { ConsumerGroupMetadata } from '../../../src/offsets/group-metadata.js';

function onCoordinator<T>(client: Client, groupId: string, request: (c: Connection) => Promise<T>): Promise<T> {
  return client.coordinators.call('group', groupId, Deadline.of('impersonation', {}, 15_000), request);
}

/** Classic: the member is removed from the group (LeaveGroup in its name, as an administrator's removal does). */
export async function removeClassicMember(client: Client, member: ConsumerGroupMetadata): Promise<void> {
  const response = await onCoordinator(client, member.groupId, (c) =>
    c.request(LeaveGroup, {
      groupId: member.groupId,
      members: [{ memberId: member.memberId, groupInstanceId: null, reason: 'removed by the test' }],
    }),
  );
  const codes = [response.errorCode, ...response.members.map((m) => m.errorCode)];
  if (codes.some((c) => c !== 0)) throw new Error(`LeaveGroup in the member's name failed: ${codes.join(',')}`);
}

/**
 * Classic: a whole rebalance in the member's name (JoinGroup, then SyncGroup as the leader, handing it the same
 * partitions): the group moves to a new generation the member itself never saw. Returns that generation.
 */
export async function rebalanceBehindClassicMember(
  client: Client,
  member: ConsumerGroupMetadata,
  topic: string,
  partitions: number[],
): Promise<number> {
  return onCoordinator(client, member.groupId, async (c) => {
    const subscription = encodeSubscription({
      topics: [topic],
      userData: null,
      ownedPartitions: [],
      generationId: member.generationId,
      rackId: null,
    });
    const join = await c.request(JoinGroup, {
      groupId: member.groupId,
      sessionTimeoutMs: 30_000,
      rebalanceTimeoutMs: 30_000,
      memberId: member.memberId,
      groupInstanceId: null,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: subscription }],
      reason: 'a rebalance the member does not see',
    });
    if (join.errorCode !== 0) throw new Error(`JoinGroup in the member's name failed: ${join.errorCode}`);
    if (join.leader !== member.memberId) throw new Error('the impersonated member was not made the leader');
    const sync = await c.request(SyncGroup, {
      groupId: member.groupId,
      generationId: join.generationId,
      memberId: member.memberId,
      groupInstanceId: null,
      protocolType: 'consumer',
      protocolName: join.protocolName,
      assignments: [
        {
          memberId: member.memberId,
          assignment: encodeAssignment({
            partitions: partitions.map((p) => ({ topic, partition: p })),
            userData: null,
          }),
        },
      ],
    });
    if (sync.errorCode !== 0) throw new Error(`SyncGroup in the member's name failed: ${sync.errorCode}`);
    return join.generationId;
  });
}

/** KIP-848: the member leaves (a heartbeat with epoch -1 in its name); the coordinator forgets it. */
export async function removeConsumerMember(client: Client, member: ConsumerGroupMetadata): Promise<void> {
  const response = await heartbeat(client, member, { memberEpoch: -1 });
  if (response.errorCode !== 0) throw new Error(`leaving in the member's name failed: ${response.errorCode}`);
}

/**
 * KIP-848: a heartbeat in the member's name that changes its subscription to `topics`, reporting `owned` (by
 * topic id) as what it holds: the group epoch moves on and the coordinator hands the member a newer epoch that
 * the member itself has not seen. Returns that epoch.
 */
export async function bumpConsumerMemberEpoch(
  client: Client,
  member: ConsumerGroupMetadata,
  topics: string[],
  owned: { topicId: string; partitions: number[] }[],
): Promise<number> {
  // The coordinator may compute the new target a little later: ask again (owning the same) until it is there.
  const started = Date.now();
  for (;;) {
    const response = await heartbeat(client, member, {
      memberEpoch: member.generationId,
      subscribedTopicNames: topics,
      topicPartitions: owned,
    });
    if (response.errorCode !== 0) throw new Error(`heartbeat in the member's name failed: ${response.errorCode}`);
    if (response.memberEpoch > member.generationId) return response.memberEpoch;
    if (Date.now() - started > 10_000) throw new Error('the member epoch did not move on within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function heartbeat(
  client: Client,
  member: ConsumerGroupMetadata,
  fields: {
    memberEpoch: number;
    subscribedTopicNames?: string[];
    topicPartitions?: { topicId: string; partitions: number[] }[];
  },
) {
  return onCoordinator(client, member.groupId, (c) =>
    c.request(ConsumerGroupHeartbeat, {
      groupId: member.groupId,
      memberId: member.memberId,
      memberEpoch: fields.memberEpoch,
      instanceId: null,
      rackId: null,
      rebalanceTimeoutMs: -1,
      subscribedTopicNames: fields.subscribedTopicNames ?? null,
      subscribedTopicRegex: null,
      serverAssignor: null,
      topicPartitions: fields.topicPartitions ?? null,
    }),
  );
}
