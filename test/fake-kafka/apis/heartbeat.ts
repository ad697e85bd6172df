/**
 * Heartbeat (classic protocol, v0-v4): keeps a member's session; UNKNOWN_MEMBER_ID for a member the group does
 * not know (removed, timed out), FENCED_INSTANCE_ID for a static member replaced by another process,
 * ILLEGAL_GENERATION for a generation that is not current, REBALANCE_IN_PROGRESS while a round is being joined.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerHeartbeat(kafka: FakeKafka, { body }: FakeRequest): unknown {
  const group = kafka.group(body.groupId).classic;
  const answer = (errorCode: number) => ({ throttleTimeMs: 0, errorCode });
  const member = group.members.get(body.memberId);
  if (member === undefined) {
    const fenced = body.groupInstanceId != null && group.memberOfInstance(body.groupInstanceId) !== undefined;
    return answer(fenced ? ErrorCode.FENCED_INSTANCE_ID : ErrorCode.UNKNOWN_MEMBER_ID);
  }
  if (body.generationId !== group.generation) return answer(ErrorCode.ILLEGAL_GENERATION);
  group.touch(member);
  return answer(group.state === 'PreparingRebalance' ? ErrorCode.REBALANCE_IN_PROGRESS : 0);
}
