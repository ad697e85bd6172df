import { TidemarkError } from '../../../codecs/errors.js';

/**
 * The pluggable partition-assignor contract of the classic consumer group
 * protocol. The group leader runs `assign` over every member's subscription
 * (from JoinGroup) and sends each member its share (in SyncGroup); every
 * member runs `subscriptionUserData` before joining and `onAssignment` after
 * syncing. The shapes mirror Kafka's `ConsumerPartitionAssignor` so that an
 * assignor written against Java's interface ports one-to-one, and so that the
 * built-in assignors can give the same answer as Java's for the same input.
 */

/** Partitions of one topic. */
export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

/**
 * One member's subscription as the leader sees it: the decoded
 * ConsumerProtocolSubscription plus the member's identity from JoinGroup.
 */
export interface AssignorMember {
  memberId: string;
  /** Set for static members (KIP-345); range and roundrobin order static members by it. */
  groupInstanceId?: string | null;
  /** The member's `client.rack` (subscription v3+); `null` or `''` means none. */
  rackId?: string | null;
  /** Subscribed topics. */
  topics: readonly string[];
  /** Partitions the member owns now (subscription v1+; cooperative members report them). */
  ownedPartitions?: readonly TopicPartitions[];
  /**
   * The subscription's `generationId` field (v2+): the generation the member
   * last took part in, or -1 / absent when unknown.
   */
  generationId?: number;
  /** Assignor-specific bytes produced by the member's `subscriptionUserData`. */
  userData?: Uint8Array | null;
}

/** What the leader knows about a topic from metadata. */
export interface TopicInfo {
  partitions: number;
  /**
   * Per partition (index = partition id), the racks of the brokers holding
   * its replicas; a replica on a broker without a rack is left out (or given
   * as `null`). Absent when metadata has no racks: rack-aware assignment
   * (KIP-881) is then off for the topic.
   */
  partitionRacks?: ReadonlyArray<ReadonlyArray<string | null>>;
}

/** One member's share of an assignment. */
export interface MemberAssignment {
  /** Grouped by topic, topics in name order, partitions ascending. */
  partitions: TopicPartitions[];
  /** Assignor-specific bytes for the member, sent in SyncGroup. */
  userData?: Uint8Array | null;
}

/** Member id to that member's share. Every member of the input has an entry, possibly empty. */
export type GroupAssignment = Map<string, MemberAssignment>;

export type RebalanceProtocol = 'eager' | 'cooperative';

/** What a member learns in SyncGroup besides its partitions. */
export interface AssignmentMetadata {
  generationId: number;
  memberId?: string;
  groupInstanceId?: string | null;
}

export interface PartitionAssignor {
  /** The protocol name sent in JoinGroup (`range`, `cooperative-sticky`, ...). */
  readonly name: string;
  /** Supported rebalance protocols, most preferred first (Java's `supportedProtocols()`). */
  readonly protocols: readonly RebalanceProtocol[];
  /** Assignor metadata version; 0 unless the assignor versions its userData. */
  readonly version?: number;
  /** Bytes to send as the subscription's userData; `null` for none. */
  subscriptionUserData?(topics: ReadonlySet<string>): Uint8Array | null;
  /** Called on every member with its share after SyncGroup. */
  onAssignment?(assignment: MemberAssignment, metadata: AssignmentMetadata): void;
  /**
   * Runs on the leader. `members` are in JoinGroup response order (which can
   * decide ties, as in Java); `topics` has the metadata of (at least) every
   * subscribed topic: a topic missing from it, or with no partitions, is not
   * assigned. Throws AssignorError where the input is too inconsistent to
   * assign at all.
   */
  assign(members: readonly AssignorMember[], topics: ReadonlyMap<string, TopicInfo>): GroupAssignment;
}

/** An assignor found its input inconsistent where Kafka's Java assignor would throw too. */
export class AssignorError extends TidemarkError {
  override name = 'AssignorError';

  constructor(
    readonly assignor: string,
    message: string,
  ) {
    super(`${assignor} assignor: ${message}`);
  }
}
