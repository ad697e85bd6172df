/**
 * SyncGroup (classic protocol, v0-v5): checks the member and its generation, parks followers until the leader's
 * assignment arrives, and answers REBALANCE_IN_PROGRESS while a new round is being joined. A leader told to skip
 * the assignment (a static rejoin) sends none; the group keeps what it had.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerSyncGroup(kafka: FakeKafka, { body }: FakeRequest): unknown {
  const group = kafka.group(body.groupId).classic;
  const member = group.members.get(body.memberId);
  const refuse = (errorCode: number) => ({
    throttleTimeMs: 0,
    errorCode,
    protocolType: null,
    protocolName: null,
    assignment: Buffer.alloc(0),
  });
  if (member === undefined) return refuse(ErrorCode.UNKNOWN_MEMBER_ID);
  if (body.generationId !== group.generation) return refuse(ErrorCode.ILLEGAL_GENERATION);
  if (group.state === 'PreparingRebalance') return refuse(ErrorCode.REBALANCE_IN_PROGRESS);
  group.touch(member);
  if (group.state === 'Stable') return group.syncAnswer(member);
  return new Promise((resolve) => {
    member.syncing = resolve;
    if (body.memberId === group.leader) {
      group.assign(new Map(body.assignments.map((a: any) => [a.memberId, a.assignment])));
    }
  });
}
