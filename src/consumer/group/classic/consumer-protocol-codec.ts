import {
  ConsumerProtocolAssignment,
  ConsumerProtocolSubscription,
} from '../../../../protocol/apis/consumer-protocol.js';
import {
  CONSUMER_PROTOCOL_VERSION,
  decodeConsumerProtocol,
  encodeConsumerProtocol,
} from '../../../../protocol/consumer-protocol-codec.js';
import { groupByTopic } from '../../../cluster/group-by.js';
import type { TopicPartition } from '../../../cluster/partition-errors.js';
import type { TopicPartitions } from '../../assignors/assignor.js';
import { flattenTopics } from '../topic-partitions.js';

/**
 * The classic consumer protocol's embedded messages (JoinGroup `protocols[].metadata`, SyncGroup `assignment`)
 * as group membership uses them: the wire form (protocol/consumer-protocol-codec.ts, shared with the admin
 * client) mapped to the membership's own types, with Java's defaults for what an older version lacks.
 */

export { CONSUMER_PROTOCOL_VERSION };

export interface Subscription {
  topics: string[];
  userData: Uint8Array | null;
  /**
   * v1+: what the member owns now, by topic; cooperative assignors keep these where they are. Decoded in wire
   * order, which Java's assignors see too (ties can depend on it).
   */
  ownedPartitions: TopicPartitions[];
  /** v2+: the generation the member last took part in; -1 when none. */
  generationId: number;
  /** v3+: the member's rack (KIP-881); null for none. */
  rackId: string | null;
}

export interface Assignment {
  partitions: TopicPartition[];
  userData: Uint8Array | null;
}

export function encodeSubscription(s: Subscription, version = CONSUMER_PROTOCOL_VERSION): Buffer {
  return encodeConsumerProtocol(
    ConsumerProtocolSubscription,
    {
      topics: [...s.topics],
      userData: s.userData === null ? null : Buffer.from(s.userData.buffer, s.userData.byteOffset, s.userData.length),
      ownedPartitions: s.ownedPartitions.map((t) => ({ topic: t.topic, partitions: [...t.partitions] })),
      generationId: s.generationId,
      rackId: s.rackId,
    },
    version,
  );
}

/** Decodes a member's subscription; values a version lacks take Java's defaults (no owned partitions, -1, null). */
export function decodeSubscription(bytes: Uint8Array): Subscription {
  const { version, value: v } = decodeConsumerProtocol(ConsumerProtocolSubscription, bytes);
  return {
    topics: v.topics,
    userData: v.userData,
    ownedPartitions: version >= 1 ? v.ownedPartitions : [],
    generationId: version >= 2 ? v.generationId : -1,
    rackId: version >= 3 && v.rackId !== '' ? v.rackId : null,
  };
}

export function encodeAssignment(a: Assignment, version = CONSUMER_PROTOCOL_VERSION): Buffer {
  return encodeConsumerProtocol(
    ConsumerProtocolAssignment,
    {
      assignedPartitions: groupByTopic(a.partitions),
      userData: a.userData === null ? null : Buffer.from(a.userData.buffer, a.userData.byteOffset, a.userData.length),
    },
    version,
  );
}

/**
 * Decodes the assignment SyncGroup handed this member. Empty bytes are no partitions: the coordinator sends
 * them to a member the leader left out, and to every member when the leader skipped assignment.
 */
export function decodeAssignment(bytes: Uint8Array): Assignment {
  if (bytes.length === 0) return { partitions: [], userData: null };
  const { value } = decodeConsumerProtocol(ConsumerProtocolAssignment, bytes);
  return { partitions: flattenTopics(value.assignedPartitions), userData: value.userData };
}
