import { TidemarkError } from '../../codecs/errors.js';
import { LeaveGroup } from '../../protocol/apis/leave-group.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { type CallOptions, Deadline } from '../cluster/deadline.js';
import { checkGroupId } from '../commit/offset-commit.js';
import { describeGroups } from './describe-groups.js';
import type { GroupAdminContext } from './group-context.js';
import { throwResourceErrors } from './resource-errors.js';

/**
 * Removing members from a group, as Java's AdminClient `removeMembersFromConsumerGroup` does: a LeaveGroup
 * (v3+, a batch) sent on the members' behalf, naming each by member id or, for a static member, group
 * instance id. The group rebalances at once instead of waiting for their session timeouts. With `'all'`, the
 * group's current members are removed: a classic group's from DescribeGroups, a KIP-848 consumer group's from
 * ConsumerGroupDescribe (describeGroups asks it for those), as Java's AdminClient does.
 */

/** A member to remove: a static member by its group instance id, a dynamic one by its member id. */
export type MemberToRemove = { groupInstanceId: string; memberId?: string } | { memberId: string };

export interface RemovedMember {
  /** Empty when removed by instance id only. */
  memberId: string;
  groupInstanceId: string | null;
}

export interface RemoveMembersOptions extends CallOptions {
  /** Recorded by the coordinator as why the members left (LeaveGroup v5+). */
  reason?: string;
}

/** How errors and ResourceErrors name a member. */
function memberLabel(m: { memberId?: string; groupInstanceId?: string | null }): string {
  return m.groupInstanceId ? `instance ${m.groupInstanceId}` : `member ${m.memberId}`;
}

/**
 * Removes members; resolves with those removed. A member the coordinator does not know (UNKNOWN_MEMBER_ID)
 * or whose instance id belongs to another member (FENCED_INSTANCE_ID) is thrown as its KafkaError naming it,
 * several as ResourceErrors whose `succeeded` are the members removed. A group-level error (no such group,
 * not authorized) is thrown as it is.
 */
export async function removeGroupMembers(
  ctx: GroupAdminContext,
  groupId: string,
  members: readonly MemberToRemove[] | 'all',
  options: RemoveMembersOptions = {},
): Promise<RemovedMember[]> {
  checkGroupId(groupId);
  const deadline = Deadline.of('LeaveGroup', options, ctx.requestTimeoutMs);
  let identities: { memberId: string; groupInstanceId: string | null }[];
  if (members === 'all') {
    const [group] = await describeGroups(ctx, [groupId], { timeoutMs: deadline.remaining(), signal: options.signal });
    if (group.state === 'Dead') {
      throw kafkaError(ErrorCode.GROUP_ID_NOT_FOUND, { context: { api: 'DescribeGroups', groupId } });
    }
    if (group.members === undefined) {
      throw new TidemarkError(
        `the members of group ${groupId} (type ${group.type ?? 'unknown'}) cannot be listed: name them`,
      );
    }
    identities = group.members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId }));
    if (identities.length === 0) return [];
  } else {
    if (members.length === 0) throw new TidemarkError('no members to remove given');
    identities = members.map((m) => {
      const groupInstanceId = 'groupInstanceId' in m ? m.groupInstanceId : null;
      if (!m.memberId && !groupInstanceId)
        throw new TidemarkError('a member to remove needs a member id or instance id');
      return { memberId: m.memberId ?? '', groupInstanceId };
    });
  }
  const reason = options.reason ?? null;
  const response = await ctx.coordinators.call('group', groupId, deadline, async (connection) => {
    const version = connection.versionFor(LeaveGroup);
    if (version < 3) {
      throw new TidemarkError(`removing members needs LeaveGroup v3+; the coordinator speaks v${version}`);
    }
    const answer = await connection.request(
      LeaveGroup,
      { groupId, members: identities.map((m) => ({ ...m, reason })) },
      { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
    );
    // A group-level error (coordinator moved or loading, no such group) is thrown: retried when retriable.
    if (answer.errorCode !== 0) {
      throw kafkaError(answer.errorCode, { context: { api: 'LeaveGroup', version, groupId } });
    }
    return { answer, version };
  });
  const errors = new Map<string, TidemarkError>();
  const removed: RemovedMember[] = [];
  for (const m of response.answer.members) {
    const member = { memberId: m.memberId, groupInstanceId: m.groupInstanceId };
    if (m.errorCode === 0) removed.push(member);
    else {
      const context = { api: 'LeaveGroup', version: response.version, groupId, member: memberLabel(member) };
      errors.set(memberLabel(member), kafkaError(m.errorCode, { context }));
    }
  }
  throwResourceErrors('LeaveGroup', errors, removed);
  return removed;
}
