export { ClassicMembership } from './classic/classic-membership.js';
export {
  type Assignment,
  CONSUMER_PROTOCOL_VERSION,
  decodeAssignment,
  decodeSubscription,
  encodeAssignment,
  encodeSubscription,
  type Subscription as ConsumerProtocolSubscription,
} from './classic/consumer-protocol-codec.js';
export { CoordinatorLink, type GroupCluster, type GroupTransport } from './coordinator-link.js';
export { createGroupMembership } from './create-membership.js';
export {
  FencedInstanceIdError,
  GroupJoinRefusedError,
  GroupMaxSizeReachedError,
  GroupMembershipError,
  GroupProtocolUnsupportedError,
  MaxPollIntervalExceededError,
  MemberNotStableError,
  MembershipClosedError,
  RebalanceListenerError,
} from './errors.js';
export { ConsumerGroupMembership, newMemberId } from './kip848/consumer-membership.js';
export type {
  GroupMembership,
  GroupMembershipOptions,
  GroupProtocol,
  LeaveOptions,
  MembershipEvents,
  MembershipState,
  RebalanceEvent,
  RebalanceListener,
  Subscription,
} from './membership.js';
