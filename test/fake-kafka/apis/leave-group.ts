/**
 * LeaveGroup (classic protocol, v0-v5; a batch of members from v3): removes each member (found by member id,
 * or by instance id for a static member), UNKNOWN_MEMBER_ID for one the group does not know; the members left
 * rebalance.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerLeaveGroup(kafka: FakeKafka, { body, version }: FakeRequest): unknown {
  const group = kafka.group(body.groupId).classic;
  const leaving: { memberId: string; groupInstanceId: string | null }[] =
    version >= 3 ? body.members : [{ memberId: body.memberId, groupInstanceId: null }];
  const members = leaving.map(({ memberId, groupInstanceId }) => {
    const member = memberId !== '' ? group.members.get(memberId) : group.memberOfInstance(groupInstanceId);
    if (member === undefined) return { memberId, groupInstanceId, errorCode: ErrorCode.UNKNOWN_MEMBER_ID };
    group.remove(member.memberId);
    return { memberId, groupInstanceId, errorCode: 0 };
  });
  const errorCode = version < 3 ? members[0].errorCode : 0;
  return { throttleTimeMs: 0, errorCode, members };
}
