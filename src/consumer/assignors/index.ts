import type { PartitionAssignor } from './assignor.js';
import { CooperativeStickyAssignor } from './cooperative-sticky.js';
import { RangeAssignor } from './range.js';
import { RoundRobinAssignor } from './roundrobin.js';
import { StickyAssignor } from './sticky.js';

export {
  type AssignmentMetadata,
  AssignorError,
  type AssignorMember,
  type GroupAssignment,
  type MemberAssignment,
  type PartitionAssignor,
  type RebalanceProtocol,
  type TopicInfo,
  type TopicPartitions,
} from './assignor.js';
export { CooperativeStickyAssignor } from './cooperative-sticky.js';
export { KafkajsRoundRobinAssignor } from './kafkajs-round-robin.js';
export { RangeAssignor } from './range.js';
export { RoundRobinAssignor } from './roundrobin.js';
export {
  decodeCooperativeUserData,
  decodeStickyUserData,
  encodeCooperativeUserData,
  encodeStickyUserData,
  type StickyUserData,
} from './sticky/user-data.js';
export { StickyAssignor } from './sticky.js';

/** The built-in assignors by protocol name, as Kafka names them. */
export const BUILT_IN_ASSIGNORS = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'] as const;
export type BuiltInAssignorName = (typeof BUILT_IN_ASSIGNORS)[number];

/**
 * A new instance of a built-in assignor. The sticky ones keep state between
 * rebalances (the member's last assignment and generation, the highest
 * generation seen), so keep one instance per consumer.
 */
export function createAssignor(name: BuiltInAssignorName): PartitionAssignor {
  switch (name) {
    case 'range':
      return new RangeAssignor();
    case 'roundrobin':
      return new RoundRobinAssignor();
    case 'sticky':
      return new StickyAssignor();
    case 'cooperative-sticky':
      return new CooperativeStickyAssignor();
  }
}
