import { groupByTopic } from '../../../cluster/group-by.js';
import type { TopicPartition } from '../../../cluster/partition-errors.js';
import { ConfigError } from '../../../options/config-error.js';
import type { PartitionAssignor, RebalanceProtocol } from '../../assignors/assignor.js';
import { GroupMembershipError } from '../errors.js';
import { encodeSubscription } from './consumer-protocol-codec.js';

/**
 * The rebalance protocol a member follows, decided as Java's ConsumerCoordinator does: the protocols every
 * configured assignor supports, cooperative preferred. With `['range', 'cooperative-sticky']` (the default)
 * that is eager, which is what lets a group move from range to cooperative-sticky in two rolling restarts.
 */
export function chooseRebalanceProtocol(assignors: readonly PartitionAssignor[]): RebalanceProtocol {
  let common: RebalanceProtocol[] = [...assignors[0].protocols];
  for (const a of assignors) common = common.filter((p) => a.protocols.includes(p));
  if (common.includes('cooperative')) return 'cooperative';
  if (common.includes('eager')) return 'eager';
  throw new ConfigError(
    'assignors',
    `the assignors ${assignors.map((a) => a.name).join(', ')} have no rebalance protocol in common`,
  );
}

export interface MemberSubscriptionState {
  topics: readonly string[];
  owned: readonly TopicPartition[];
  generationId: number;
  rackId: string | null;
}

/**
 * JoinGroup's `protocols`: one entry per assignor, in preference order, each with the member's subscription and
 * that assignor's userData (Java's `ConsumerCoordinator.metadata()`).
 */
export function joinGroupProtocols(
  assignors: readonly PartitionAssignor[],
  state: MemberSubscriptionState,
): Array<{ name: string; metadata: Buffer }> {
  const topicSet = new Set(state.topics);
  return assignors.map((assignor) => ({
    name: assignor.name,
    metadata: encodeSubscription({
      topics: [...state.topics],
      userData: assignor.subscriptionUserData?.(topicSet) ?? null,
      ownedPartitions: groupByTopic(state.owned),
      generationId: state.generationId,
      rackId: state.rackId,
    }),
  }));
}

/** The assignor the coordinator chose (every member listed it); one this member lacks means a confused group. */
export function assignorNamed(
  assignors: readonly PartitionAssignor[],
  name: string,
  groupId: string,
): PartitionAssignor {
  const assignor = assignors.find((a) => a.name === name);
  if (assignor !== undefined) return assignor;
  throw new GroupMembershipError(groupId, `the coordinator chose assignor ${name}, which this member lacks`);
}
