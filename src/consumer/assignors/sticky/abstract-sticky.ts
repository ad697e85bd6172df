import {
  AssignorError,
  type AssignorMember,
  type GroupAssignment,
  type PartitionAssignor,
  type RebalanceProtocol,
  type TopicInfo,
} from '../assignor.js';
import {
  type AssignmentInput,
  prepareInput,
  removeFirst,
  type Subscription,
  type TP,
  toGroupAssignment,
} from '../common.js';
import { ConstrainedAssignmentBuilder } from './constrained.js';
import { GeneralAssignmentBuilder, type MemberData } from './general.js';

export type { MemberData };

import { RackInfo } from './rack-info.js';
import { DEFAULT_GENERATION } from './user-data.js';

/** What a sticky assignor knows of a member's previous assignment. */

/**
 * Kafka's `AbstractStickyAssignor`, shared by `sticky` and
 * `cooperative-sticky`: a balanced assignment that keeps as many partitions
 * as possible where they were. When every member subscribes to the same
 * topics a fast quota-based algorithm runs (constrained.ts), otherwise the
 * general one (general.ts). Both are rack-aware (KIP-881).
 *
 * Like Java's, an instance remembers the highest generation it has seen
 * across calls (a member reporting an older one has its claims ranked
 * lower), so a leader should keep one instance for the group's lifetime.
 */
export abstract class AbstractStickyAssignor implements PartitionAssignor {
  abstract readonly name: string;
  abstract readonly protocols: readonly RebalanceProtocol[];

  private maxGeneration = DEFAULT_GENERATION;
  /**
   * Partitions the last assign() gave to a member other than their previous
   * owner, filled by the constrained algorithm; null after the general one,
   * whose result the cooperative assignor must diff instead.
   */
  protected partitionsTransferringOwnership: Map<TP, string> | null = new Map();

  /** The previously owned partitions and generation a member reports. */
  protected abstract memberData(subscription: Subscription, input: AssignmentInput): MemberData;

  assign(members: readonly AssignorMember[], topics: ReadonlyMap<string, TopicInfo>): GroupAssignment {
    // Java divides by the member count here and throws; an empty group simply gets nothing.
    if (members.length === 0) return new Map();
    const input = prepareInput(members, topics);
    const raw = this.assignPartitions(input);
    return toGroupAssignment(
      input.subscriptions.map((s) => s.memberId),
      raw,
    );
  }

  /**
   * Java's algorithm, step for step. Where Java's answer would break the
   * protocol (a partition given to a member not subscribed to its topic, one
   * that metadata does not have, or one given twice) or Java would throw
   * (a NullPointerException, an IllegalStateException on owned partitions
   * that metadata does not have), a second, repaired pass answers instead.
   * So the answer is Java's wherever Java's answer is sound. (Kafka's
   * consumer rejoins when handed a topic it does not subscribe to, and its
   * leader fails the rebalance when its assignor throws.)
   */
  protected assignPartitions(input: AssignmentInput): Map<string, TP[]> {
    try {
      const result = this.assignPass(input, false);
      if (isSound(input, result)) return result;
    } catch (err) {
      if (!(err instanceof AssignorError)) throw err;
    }
    return this.assignPass(input, true);
  }

  private assignPass(input: AssignmentInput, repair: boolean): Map<string, TP[]> {
    const consumerToOwnedPartitions = new Map<string, TP[]>();
    const partitionsWithMultiplePreviousOwners = new Set<TP>();
    const rackInfo = new RackInfo(input);
    if (this.allSubscriptionsEqual(input, consumerToOwnedPartitions, partitionsWithMultiplePreviousOwners, repair)) {
      const transferring = new Map<TP, string>();
      this.partitionsTransferringOwnership = transferring;
      return new ConstrainedAssignmentBuilder(
        input,
        rackInfo,
        consumerToOwnedPartitions,
        partitionsWithMultiplePreviousOwners,
        transferring,
      ).build();
    }
    this.partitionsTransferringOwnership = null;
    return new GeneralAssignmentBuilder(input, rackInfo, consumerToOwnedPartitions, {
      memberData: (s) => this.memberData(s, input),
      maxGeneration: this.maxGeneration,
      repair,
    }).build();
  }

  /**
   * Whether all members subscribe to the same topics; also collects each
   * member's still-valid owned partitions. A partition claimed by two members
   * goes to the one with the higher generation; claimed twice in the same
   * generation it goes to neither and is noted.
   *
   * Java quirks kept (they decide the outcome): the rival claimant's
   * generation is the one in its Subscription, not in its memberData; and the
   * first member with a non-empty subscription sets the reference, so a
   * member subscribed to nothing before it does not count (the repaired pass
   * compares every member, and ignores claims on partitions metadata lacks).
   */
  private allSubscriptionsEqual(
    input: AssignmentInput,
    consumerToOwnedPartitions: Map<string, TP[]>,
    partitionsWithMultiplePreviousOwners: Set<TP>,
    repair: boolean,
  ): boolean {
    let isAllSubscriptionsEqual = true;
    const subscribedTopics = new Set<string>();
    const allPreviousPartitionsToOwner = new Map<TP, string>();
    let first = true;

    for (const subscription of input.subscriptions) {
      const consumer = subscription.memberId;
      if (repair ? first : subscribedTopics.size === 0) {
        first = false;
        for (const t of subscription.topics) subscribedTopics.add(t);
      } else if (
        isAllSubscriptionsEqual &&
        !(
          subscription.topics.length === subscribedTopics.size &&
          subscription.topics.every((t) => subscribedTopics.has(t))
        )
      ) {
        isAllSubscriptionsEqual = false;
      }

      const memberData = this.memberData(subscription, input);
      const memberGeneration = memberData.generation ?? DEFAULT_GENERATION;
      this.maxGeneration = Math.max(this.maxGeneration, memberGeneration);

      const ownedPartitions: TP[] = [];
      consumerToOwnedPartitions.set(consumer, ownedPartitions);
      for (const tp of memberData.partitions) {
        const info = input.partitionsPerTopic.get(tp.topic);
        if (info === undefined || (repair && !(tp.partition >= 0 && tp.partition < info.count))) continue;
        const otherConsumer = allPreviousPartitionsToOwner.get(tp);
        if (otherConsumer === undefined) {
          ownedPartitions.push(tp);
          allPreviousPartitionsToOwner.set(tp, consumer);
          continue;
        }
        const otherMemberGeneration = input.byId.get(otherConsumer)!.generationId ?? DEFAULT_GENERATION;
        if (memberGeneration === otherMemberGeneration) {
          partitionsWithMultiplePreviousOwners.add(tp);
          removeFirst(consumerToOwnedPartitions.get(otherConsumer)!, tp);
          allPreviousPartitionsToOwner.set(tp, consumer);
        } else if (memberGeneration > otherMemberGeneration) {
          ownedPartitions.push(tp);
          removeFirst(consumerToOwnedPartitions.get(otherConsumer)!, tp);
          allPreviousPartitionsToOwner.set(tp, consumer);
        }
        // else the other member, of a newer generation, keeps it
      }
    }
    return isAllSubscriptionsEqual;
  }
}

/** Every assigned partition exists, goes to a member subscribed to its topic, and to one member only. */
function isSound(input: AssignmentInput, result: ReadonlyMap<string, readonly TP[]>): boolean {
  const seen = new Set<TP>();
  for (const [member, partitions] of result) {
    const topics = input.byId.get(member)?.topics;
    for (const tp of partitions) {
      const count = input.partitionsPerTopic.get(tp.topic)?.count ?? 0;
      if (seen.has(tp) || !(tp.partition >= 0 && tp.partition < count) || !topics?.includes(tp.topic)) return false;
      seen.add(tp);
    }
  }
  return true;
}
