import { ProtocolError } from '../../../../codecs/errors.js';
import { Reader } from '../../../../codecs/reader.js';
import { Writer } from '../../../../codecs/writer.js';
import {
  ConsumerProtocolAssignment,
  ConsumerProtocolSubscription,
} from '../../../../protocol/apis/consumer-protocol.js';
import { messageCodec } from '../../../../protocol/codec.js';
import type { TopicPartition } from '../../../cluster/partition-errors.js';
import type { TopicPartitions } from '../../assignors/assignor.js';
import { flattenTopics, groupByTopic } from '../topic-partitions.js';

/**
 * The classic consumer protocol's embedded messages (JoinGroup `protocols[].metadata`, SyncGroup `assignment`):
 * an int16 version, then the message at that version. Written at the version Kafka's Java client writes
 * (`ConsumerProtocol.serializeSubscription/Assignment`: the highest, 3), read at any version, a newer one by the
 * fields this client knows, as Java's `checkSubscriptionVersion` does.
 */

/** What Java writes, and the newest version tidemark knows. */
export const CONSUMER_PROTOCOL_VERSION = 3;

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
  const w = new Writer(128);
  w.int16(version);
  messageCodec(ConsumerProtocolSubscription, version).encode(w, {
    topics: [...s.topics],
    userData: s.userData === null ? null : Buffer.from(s.userData.buffer, s.userData.byteOffset, s.userData.length),
    ownedPartitions: s.ownedPartitions.map((t) => ({ topic: t.topic, partitions: [...t.partitions] })),
    generationId: s.generationId,
    rackId: s.rackId,
  });
  return w.toBuffer();
}

/** Decodes a member's subscription; values a version lacks take Java's defaults (no owned partitions, -1, null). */
export function decodeSubscription(bytes: Uint8Array): Subscription {
  const { version, reader } = open(bytes, 'ConsumerProtocolSubscription');
  const v = messageCodec(ConsumerProtocolSubscription, version).decode(reader);
  return {
    topics: v.topics,
    userData: v.userData,
    ownedPartitions: version >= 1 ? v.ownedPartitions : [],
    generationId: version >= 2 ? v.generationId : -1,
    rackId: version >= 3 && v.rackId !== '' ? v.rackId : null,
  };
}

export function encodeAssignment(a: Assignment, version = CONSUMER_PROTOCOL_VERSION): Buffer {
  const w = new Writer(64);
  w.int16(version);
  messageCodec(ConsumerProtocolAssignment, version).encode(w, {
    assignedPartitions: groupByTopic(a.partitions),
    userData: a.userData === null ? null : Buffer.from(a.userData.buffer, a.userData.byteOffset, a.userData.length),
  });
  return w.toBuffer();
}

/**
 * Decodes the assignment SyncGroup handed this member. Empty bytes are no partitions: the coordinator sends
 * them to a member the leader left out, and to every member when the leader skipped assignment.
 */
export function decodeAssignment(bytes: Uint8Array): Assignment {
  if (bytes.length === 0) return { partitions: [], userData: null };
  const { version, reader } = open(bytes, 'ConsumerProtocolAssignment');
  const v = messageCodec(ConsumerProtocolAssignment, version).decode(reader);
  return { partitions: flattenTopics(v.assignedPartitions), userData: v.userData };
}

function open(bytes: Uint8Array, what: string): { version: number; reader: Reader } {
  const reader = new Reader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  const version = reader.int16();
  if (version < 0) throw new ProtocolError(`${what} version ${version} is negative`, { api: what, offset: 0 });
  return { version: Math.min(version, CONSUMER_PROTOCOL_VERSION), reader };
}
