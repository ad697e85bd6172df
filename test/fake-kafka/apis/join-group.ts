/**
 * JoinGroup (classic protocol, v0-v9): from v4 a dynamic member's first join is answered MEMBER_ID_REQUIRED with
 * the id to rejoin with; an unknown member id is UNKNOWN_MEMBER_ID; a join parks until the round completes
 * (classic-group.ts). A static member rejoining a stable group with the protocols it had keeps the generation
 * (the leader is told to skip the assignment, v9), as Kafka does; a new static member with a known instance id
 * replaces (fences) the old one.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { ClassicMember } from '../classic-group.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerJoinGroup(kafka: FakeKafka, { body, version }: FakeRequest): unknown {
  const group = kafka.group(body.groupId).classic;
  if (body.protocolType !== 'consumer' || body.protocols.length === 0) {
    return group.errorJoin(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
  }
  const instanceId: string | null = body.groupInstanceId ?? null;
  let memberId: string = body.memberId;
  const sameInstance = group.memberOfInstance(instanceId);
  if (memberId === '' && sameInstance !== undefined) return rejoinStatic(kafka, sameInstance, body, version);
  if (memberId === '' && instanceId === null && version >= 4) {
    const given = group.newMemberId();
    group.pending.add(given);
    return { ...group.errorJoin(ErrorCode.MEMBER_ID_REQUIRED), memberId: given };
  }
  if (memberId === '') memberId = group.newMemberId();
  else if (!group.members.has(memberId) && !group.pending.has(memberId)) {
    return { ...group.errorJoin(ErrorCode.UNKNOWN_MEMBER_ID), memberId };
  } else if (sameInstance !== undefined && sameInstance.memberId !== memberId) {
    return { ...group.errorJoin(ErrorCode.FENCED_INSTANCE_ID), memberId };
  }
  group.pending.delete(memberId);
  const existing = group.members.get(memberId);
  const member: ClassicMember = existing ?? {
    memberId,
    groupInstanceId: instanceId,
    protocols: [],
    assignment: Buffer.alloc(0),
    sessionTimeoutMs: 0,
    rebalanceTimeoutMs: 0,
  };
  const unchanged = existing !== undefined && sameProtocols(existing.protocols, body.protocols);
  Object.assign(member, timeouts(body), { protocols: body.protocols });
  group.members.set(memberId, member);
  group.touch(member);
  // A follower that rejoins a stable group with nothing changed gets the current generation back.
  if (unchanged && group.state === 'Stable' && group.leader !== memberId) return group.joinAnswer(member, version);
  return new Promise((resolve) => {
    member.joining = { version, resolve };
    group.prepareRebalance();
    group.completeJoin();
  });
}

/** A static member back with a new process: it takes over the old member's place under a new member id. */
function rejoinStatic(kafka: FakeKafka, old: ClassicMember, body: any, version: number): unknown {
  const group = kafka.group(body.groupId).classic;
  const memberId = group.newMemberId();
  const unchanged = sameProtocols(old.protocols, body.protocols);
  clearTimeout(old.session);
  group.members.delete(old.memberId);
  // Whatever the old process still waits for is fenced.
  old.joining?.resolve({ ...group.errorJoin(ErrorCode.FENCED_INSTANCE_ID), memberId: old.memberId });
  group.answerSync(old, { errorCode: ErrorCode.FENCED_INSTANCE_ID });
  const member: ClassicMember = { ...old, memberId, joining: undefined, syncing: undefined, session: undefined };
  Object.assign(member, timeouts(body), { protocols: body.protocols });
  group.members.set(memberId, member);
  if (group.leader === old.memberId) group.leader = memberId;
  group.touch(member);
  if (unchanged && group.state === 'Stable') {
    return group.joinAnswer(member, version, version >= 9 && group.leader === memberId);
  }
  return new Promise((resolve) => {
    member.joining = { version, resolve };
    group.prepareRebalance();
    group.completeJoin();
  });
}

function timeouts(body: any): { sessionTimeoutMs: number; rebalanceTimeoutMs: number } {
  const rebalance: number = body.rebalanceTimeoutMs;
  return {
    sessionTimeoutMs: body.sessionTimeoutMs,
    rebalanceTimeoutMs: rebalance > 0 ? rebalance : body.sessionTimeoutMs,
  };
}

function sameProtocols(a: { name: string; metadata: Buffer }[], b: { name: string; metadata: Buffer }[]): boolean {
  return (
    a.length === b.length && a.every((p, i) => p.name === b[i].name && Buffer.compare(p.metadata, b[i].metadata) === 0)
  );
}
