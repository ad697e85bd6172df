/**
 * A classic-protocol member driven with raw JoinGroup / SyncGroup / Heartbeat / LeaveGroup requests, for the
 * groups and offset-commit checks: join (with the MEMBER_ID_REQUIRED round trip of KIP-394), sync as leader,
 * heartbeat and leave, each answer recorded by the probe.
 */
import { Writer } from '../../../codecs/writer.js';
import { ConsumerProtocolSubscription } from '../../../protocol/apis/consumer-protocol.js';
import { Heartbeat } from '../../../protocol/apis/heartbeat.js';
import { JoinGroup } from '../../../protocol/apis/join-group.js';
import { LeaveGroup } from '../../../protocol/apis/leave-group.js';
import { SyncGroup } from '../../../protocol/apis/sync-group.js';
import { messageCodec } from '../../../protocol/codec.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { Connection } from '../../network/connection.js';
import { errorName, type Probe } from '../probe.js';

/** The bytes a consumer puts in JoinGroup for protocol type "consumer": version 0 subscription to `topics`. */
export function subscriptionBytes(topics: string[]): Buffer {
  const w = new Writer();
  w.int16(0);
  messageCodec(ConsumerProtocolSubscription, 0).encode(w, { topics, userData: null });
  return w.toBuffer();
}

export interface Member {
  groupId: string;
  memberId: string;
  generationId: number;
  groupInstanceId: string | null;
  coordinator: Connection;
}

export interface JoinOptions {
  topics?: string[];
  groupInstanceId?: string | null;
  memberId?: string;
  sessionTimeoutMs?: number;
  rebalanceTimeoutMs?: number;
}

/** One JoinGroup request as the member would send it. */
export function joinRequest(groupId: string, options: JoinOptions = {}) {
  return {
    groupId,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 10_000,
    rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 10_000,
    memberId: options.memberId ?? '',
    groupInstanceId: options.groupInstanceId ?? null,
    protocolType: 'consumer',
    protocols: [{ name: 'range', metadata: subscriptionBytes(options.topics ?? []) }],
    reason: null,
  };
}

/** Joins (and, as leader of a group of one, syncs) a classic group; fails the check on any error code. */
export async function joinAlone(probe: Probe, groupId: string, options: JoinOptions = {}): Promise<Member> {
  let coordinator = await probe.suite.coordinator(probe, groupId);
  let join = await probe.suite.retryingCoordinator(
    async () => {
      coordinator = await probe.suite.coordinator(probe, groupId);
      return probe.send(coordinator, JoinGroup, joinRequest(groupId, options));
    },
    (answer) => answer.errorCode,
  );
  if (join.errorCode === ErrorCode.MEMBER_ID_REQUIRED) {
    join = await probe.send(coordinator, JoinGroup, joinRequest(groupId, { ...options, memberId: join.memberId }));
  }
  if (join.errorCode !== 0) probe.fail(`JoinGroup answered ${errorName(join.errorCode)}`);
  const member: Member = {
    groupId,
    memberId: join.memberId,
    generationId: join.generationId,
    groupInstanceId: options.groupInstanceId ?? null,
    coordinator,
  };
  const sync = await probe.send(coordinator, SyncGroup, {
    groupId,
    generationId: member.generationId,
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    protocolType: 'consumer',
    protocolName: join.protocolName,
    assignments: join.leader === join.memberId ? [{ memberId: member.memberId, assignment: Buffer.alloc(0) }] : [],
  });
  if (sync.errorCode !== 0) probe.fail(`SyncGroup answered ${errorName(sync.errorCode)}`);
  return member;
}

export async function heartbeat(probe: Probe, member: Member, change: Partial<Member> = {}): Promise<number> {
  const m = { ...member, ...change };
  const response = await probe.send(member.coordinator, Heartbeat, {
    groupId: m.groupId,
    generationId: m.generationId,
    memberId: m.memberId,
    groupInstanceId: m.groupInstanceId,
  });
  return response.errorCode;
}

/** Leaves the group; the member-level error code (v3+) or the top-level one. */
export async function leave(probe: Probe, member: Member): Promise<number> {
  const version = member.coordinator.versionFor(LeaveGroup);
  const response = await probe.send(
    member.coordinator,
    LeaveGroup,
    version >= 3
      ? {
          groupId: member.groupId,
          members: [{ memberId: member.memberId, groupInstanceId: member.groupInstanceId, reason: null }],
        }
      : { groupId: member.groupId, memberId: member.memberId },
  );
  return response.errorCode !== 0 ? response.errorCode : (response.members[0]?.errorCode ?? 0);
}
