import type { TopicPartition } from '../cluster/partition-errors.js';
import { authorizedOperations } from './cluster.js';

/** What describing a group answers (DescribeGroups for classic groups, ConsumerGroupDescribe for KIP-848). */

export interface GroupMemberDescription {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  /** As the broker saw the member's address, e.g. `/127.0.0.1`. */
  clientHost: string;
  /** The partitions assigned to the member (consumer protocol only; empty while it joins). */
  assignment: TopicPartition[];
  /** The topics the member subscribed to (consumer protocol only). */
  subscribedTopics: string[];
  /** KIP-848 members only: the member's epoch. */
  memberEpoch?: number;
  /** KIP-848 members only: the partitions the coordinator is moving the member towards. */
  targetAssignment?: TopicPartition[];
  /** KIP-848 members only: the rack the member said it is in. */
  rackId?: string | null;
}

export interface GroupDescription {
  groupId: string;
  /**
   * Empty, Stable, PreparingRebalance, CompletingRebalance (classic), Assigning, Reconciling (KIP-848), or Dead
   * (no such group).
   */
  state: string;
  /** classic or consumer (KIP-848); undefined when the broker does not say (ListGroups before v5). */
  type: string | undefined;
  /** `consumer` for consumer groups, empty for a group that only holds committed offsets. */
  protocolType: string;
  /** The assignor the members agreed on (classic groups, once stable), or the server-side one (KIP-848). */
  assignor: string;
  /**
   * The live members (KIP-848 groups through ConsumerGroupDescribe). Undefined only for a group of another
   * type (share, streams), which neither request describes; its state still tells whether it has members.
   */
  members: GroupMemberDescription[] | undefined;
  /** The node id of the group's coordinator. */
  coordinator: number;
  /** KIP-848 groups only: the epoch of the group's membership and of its target assignment. */
  groupEpoch?: number;
  assignmentEpoch?: number;
  /**
   * When asked for (`includeAuthorizedOperations`): the operations this client may perform on the group, sorted
   * names (e.g. DESCRIBE, READ); absent otherwise, and for a group neither request describes (share, streams).
   */
  authorizedOperations?: string[];
}

/** Whether a describe call asks for authorized operations (false unless it says so). */
export function operationsAsked(options: { includeAuthorizedOperations?: boolean }): {
  includeAuthorizedOperations: boolean;
} {
  return { includeAuthorizedOperations: options.includeAuthorizedOperations === true };
}

/** The `authorizedOperations` field of a described group: set only when the call asked and the broker said. */
export function authorizedOperationsOf(
  bits: number,
  ask: { includeAuthorizedOperations: boolean },
): Pick<GroupDescription, 'authorizedOperations'> {
  const names = ask.includeAuthorizedOperations ? authorizedOperations(bits) : undefined;
  return names === undefined ? {} : { authorizedOperations: names };
}
