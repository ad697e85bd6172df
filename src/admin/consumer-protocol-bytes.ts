import { ConsumerProtocolAssignment, ConsumerProtocolSubscription } from '../../protocol/apis/consumer-protocol.js';
import { decodeConsumerProtocol } from '../../protocol/consumer-protocol-codec.js';
import type { TopicPartition } from '../cluster/partition-errors.js';

/**
 * The partitions a classic consumer-group member was assigned (DescribeGroups `memberAssignment`). Empty bytes (a
 * member still joining) are no partitions.
 */
export function decodeAssignment(bytes: Buffer): TopicPartition[] {
  if (bytes.length === 0) return [];
  const { value } = decodeConsumerProtocol(ConsumerProtocolAssignment, bytes);
  return value.assignedPartitions.flatMap((t) => t.partitions.map((partition) => ({ topic: t.topic, partition })));
}

/** The topics a classic consumer-group member subscribed to (DescribeGroups `memberMetadata`). */
export function decodeSubscribedTopics(bytes: Buffer): string[] {
  if (bytes.length === 0) return [];
  return decodeConsumerProtocol(ConsumerProtocolSubscription, bytes).value.topics;
}
