import { JoinGroup } from '../../../../protocol/apis/join-group.js';
import { SyncGroup } from '../../../../protocol/apis/sync-group.js';
import { ErrorCode } from '../../../../protocol/error-codes.js';
import { kafkaError } from '../../../../protocol/kafka-error.js';
import type { GroupTransport } from '../coordinator-link.js';
import type { ResolvedOptions } from '../options.js';
import { type Assignment, decodeAssignment } from './consumer-protocol-codec.js';
import type { JoinedMember } from './leader.js';

export const PROTOCOL_TYPE = 'consumer';
/** Java's JOIN_GROUP_TIMEOUT_LAPSE: JoinGroup may wait the whole rebalance timeout, plus this. */
const JOIN_GROUP_TIMEOUT_LAPSE_MS = 5_000;
/** MEMBER_ID_REQUIRED is answered at once; more than a few in a row means something else is wrong. */
const MAX_MEMBER_ID_ROUNDS = 3;

/** Who the member is in the group: Java's `Generation`. */
export interface Generation {
  generationId: number;
  memberId: string;
  protocolName: string | null;
}

export const NO_GENERATION: Generation = { generationId: -1, memberId: '', protocolName: null };

/**
 * The generation after the coordinator stopped recognising it: UNKNOWN_MEMBER_ID forgets the member id too;
 * ILLEGAL_GENERATION keeps it, since it is likely still valid (Java's resetStateAndGeneration).
 */
export function resetGeneration(generation: Generation, kind: 'fenced' | 'stale-generation'): Generation {
  return kind === 'fenced' ? NO_GENERATION : { generationId: -1, memberId: generation.memberId, protocolName: null };
}

export interface JoinRound {
  transport: GroupTransport;
  options: ResolvedOptions;
  /** The member id to join with ('' the first time). */
  memberId: string;
  protocols: Array<{ name: string; metadata: Buffer }>;
  reason: string;
  signal: AbortSignal;
  /** The generation the member belongs to from the moment JoinGroup answers (before SyncGroup). */
  onGeneration(generation: Generation): void;
  /** The leader's assignment for SyncGroup (Java's onLeaderElected); `skip` for a static leader rejoining. */
  lead(
    protocolName: string,
    members: JoinedMember[],
    skip: boolean,
  ): Promise<Array<{ memberId: string; assignment: Buffer }>>;
}

export interface JoinResult {
  generation: Generation;
  leader: boolean;
  assignment: Assignment;
}

/**
 * One classic rebalance round for this member: JoinGroup (again with the coordinator's member id after
 * MEMBER_ID_REQUIRED, the two-step join of KIP-394), the leader's assignment, SyncGroup. Response errors are
 * thrown as typed KafkaErrors (context `api` says which request) for the member to act on.
 */
export async function joinAndSync(round: JoinRound): Promise<JoinResult> {
  const { transport, options, signal } = round;
  let memberId = round.memberId;
  for (let attempt = 1; ; attempt++) {
    const join = await transport.request(
      JoinGroup,
      () => ({
        groupId: options.groupId,
        sessionTimeoutMs: options.sessionTimeoutMs,
        rebalanceTimeoutMs: options.rebalanceTimeoutMs,
        memberId,
        groupInstanceId: options.groupInstanceId,
        protocolType: PROTOCOL_TYPE,
        protocols: round.protocols,
        reason: round.reason.slice(0, 255),
      }),
      {
        parked: true,
        signal,
        timeoutMs: Math.max(options.requestTimeoutMs, options.rebalanceTimeoutMs + JOIN_GROUP_TIMEOUT_LAPSE_MS),
      },
    );
    const context = { api: 'JoinGroup', groupId: options.groupId };
    if (join.errorCode === ErrorCode.MEMBER_ID_REQUIRED && attempt < MAX_MEMBER_ID_ROUNDS) {
      memberId = join.memberId;
      round.onGeneration({ ...NO_GENERATION, memberId });
      continue;
    }
    if (join.errorCode !== 0) throw kafkaError(join.errorCode, { context });
    if (join.protocolType !== null && join.protocolType !== undefined && join.protocolType !== PROTOCOL_TYPE) {
      throw kafkaError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, {
        message: `the group's protocol type is ${join.protocolType}, not ${PROTOCOL_TYPE}`,
        context,
      });
    }
    const protocolName = join.protocolName ?? '';
    const generation: Generation = { generationId: join.generationId, memberId: join.memberId, protocolName };
    round.onGeneration(generation);
    const leader = join.leader === join.memberId;
    const assignments = leader
      ? await round.lead(
          protocolName,
          join.members.map((m) => ({ memberId: m.memberId, groupInstanceId: m.groupInstanceId, metadata: m.metadata })),
          join.skipAssignment,
        )
      : [];
    const sync = await transport.request(
      SyncGroup,
      () => ({
        groupId: options.groupId,
        generationId: generation.generationId,
        memberId: generation.memberId,
        groupInstanceId: options.groupInstanceId,
        protocolType: PROTOCOL_TYPE,
        protocolName,
        assignments,
      }),
      // A follower's SyncGroup waits for the leader's, which follows at once; Java bounds it by the request timeout.
      { parked: true, signal, timeoutMs: options.requestTimeoutMs },
    );
    const syncContext = { api: 'SyncGroup', groupId: options.groupId };
    if (sync.errorCode !== 0) throw kafkaError(sync.errorCode, { context: syncContext });
    const inconsistent =
      (sync.protocolType != null && sync.protocolType !== PROTOCOL_TYPE) ||
      (sync.protocolName != null && sync.protocolName !== protocolName);
    if (inconsistent) {
      throw kafkaError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, {
        message: `SyncGroup answered for protocol ${sync.protocolType}/${sync.protocolName}`,
        context: syncContext,
      });
    }
    return { generation, leader, assignment: decodeAssignment(sync.assignment) };
  }
}
