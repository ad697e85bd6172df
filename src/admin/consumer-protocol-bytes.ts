import { ProtocolError } from '../../codecs/errors.js';
import { Reader } from '../../codecs/reader.js';
import { ConsumerProtocolAssignment, ConsumerProtocolSubscription } from '../../protocol/apis/consumer-protocol.js';
import { messageCodec } from '../../protocol/codec.js';
import type { TopicPartition } from '../cluster/partition-errors.js';

/** The newest embedded-message version tidemark defines; newer ones are read by the fields it knows. */
const KNOWN_VERSION = 3;

/**
 * The partitions a classic consumer-group member was assigned (DescribeGroups `memberAssignment`): an int16
 * version, then ConsumerProtocolAssignment. Empty bytes (a member still joining) are no partitions.
 */
export function decodeAssignment(bytes: Buffer): TopicPartition[] {
  if (bytes.length === 0) return [];
  const r = new Reader(bytes);
  const version = readVersion(r);
  const value = messageCodec(ConsumerProtocolAssignment, version).decode(r);
  return value.assignedPartitions.flatMap((t) => t.partitions.map((partition) => ({ topic: t.topic, partition })));
}

/** The topics a classic consumer-group member subscribed to (DescribeGroups `memberMetadata`). */
export function decodeSubscribedTopics(bytes: Buffer): string[] {
  if (bytes.length === 0) return [];
  const r = new Reader(bytes);
  const version = readVersion(r);
  return messageCodec(ConsumerProtocolSubscription, version).decode(r).topics;
}

function readVersion(r: Reader): number {
  const version = r.int16();
  if (version < 0) throw new ProtocolError(`consumer protocol version ${version} is negative`, { offset: 0 });
  return Math.min(version, KNOWN_VERSION);
}
