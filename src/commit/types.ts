import type { BackoffOptions } from '../cluster/backoff.js';
import type { TopicMetadata } from '../cluster/metadata.js';
import type { TopicPartition } from '../cluster/partition-errors.js';
import type { Coordinators } from '../coordinator/coordinators.js';

/**
 * @deprecated The old shape of a member's identity; `commitOffsets` takes `ConsumerGroupMetadata`, the one
 * member-identity type (what `consumer.groupMetadata()` returns), and still accepts this one for now.
 */
export interface GroupMembership {
  memberId: string;
  /** The classic protocol's generation id, or the KIP-848 member epoch. */
  generationIdOrMemberEpoch: number;
  /** The static membership id (KIP-345), when the member has one. */
  groupInstanceId?: string | null;
}

/** One partition's committed position, as the coordinator holds it. */
export interface CommittedOffset {
  topic: string;
  partition: number;
  /** Null when the group has no commit for the partition. */
  offset: bigint | null;
  /** Null when not stored (committed without an epoch, or by a client before KIP-320). */
  leaderEpoch: number | null;
  metadata: string | null;
}

/** What the commit functions need of the cluster: topic ids for the versions that name topics by id. */
export interface CommitCluster {
  readonly metadataCache: {
    topic(name: string): Promise<TopicMetadata>;
    invalidate(topic?: string): void;
  };
}

export interface CommitContext {
  cluster: CommitCluster;
  coordinators: Coordinators;
  /** Default bound of a whole call, and the bound of each request. */
  requestTimeoutMs: number;
  backoff?: BackoffOptions;
}

/** One group whose committed offsets are wanted. */
export interface GroupOffsetsQuery {
  groupId: string;
  /** The partitions to read; absent or null for every partition the group has committed. */
  partitions?: readonly TopicPartition[] | null;
  /** KIP-848 members (OffsetFetch v9+): lets the coordinator check that the member is still current. */
  memberId?: string | null;
  memberEpoch?: number;
}
