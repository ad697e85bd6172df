import type { AssignmentMetadata, MemberAssignment } from './assignor.js';
import { type AssignmentInput, removeFirst, type Subscription, type TP } from './common.js';
import { AbstractStickyAssignor, type MemberData } from './sticky/abstract-sticky.js';
import { decodeCooperativeUserData, encodeCooperativeUserData } from './sticky/user-data.js';

/**
 * Kafka's `CooperativeStickyAssignor` (protocol `cooperative-sticky`): the
 * sticky algorithm under the cooperative protocol (KIP-429). Members keep
 * their partitions while rejoining and report them in the subscription's
 * ownedPartitions with their generationId (older members: in userData). A
 * partition that moves to another member is left out of this assignment, so
 * its owner revokes it first; the owner then rejoins and the next rebalance
 * gives it to its new member.
 */
export class CooperativeStickyAssignor extends AbstractStickyAssignor {
  readonly name = 'cooperative-sticky';
  readonly protocols = ['cooperative', 'eager'] as const;

  private generation = -1;

  onAssignment(_assignment: MemberAssignment, metadata: AssignmentMetadata): void {
    this.generation = metadata.generationId;
  }

  /** The generation, for leaders that read it from userData (subscriptions before v2). */
  subscriptionUserData(_topics: ReadonlySet<string>): Uint8Array | null {
    return encodeCooperativeUserData(this.generation);
  }

  protected memberData(subscription: Subscription, _input: AssignmentInput): MemberData {
    if (subscription.generationId !== undefined) {
      return { partitions: subscription.ownedPartitions, generation: subscription.generationId };
    }
    return { partitions: subscription.ownedPartitions, generation: decodeCooperativeUserData(subscription.userData) };
  }

  protected override assignPartitions(input: AssignmentInput): Map<string, TP[]> {
    const assignments = super.assignPartitions(input);
    const transferring =
      this.partitionsTransferringOwnership ?? computePartitionsTransferringOwnership(input, assignments);
    // Revoke before reassigning: the new owner gets it in the next rebalance.
    for (const [tp, consumer] of transferring) removeFirst(assignments.get(consumer)!, tp);
    return assignments;
  }
}

/** Partitions assigned to a member that did not own them while another member that owned them loses them. */
function computePartitionsTransferringOwnership(
  input: AssignmentInput,
  assignments: Map<string, TP[]>,
): Map<TP, string> {
  const allAddedPartitions = new Map<TP, string>();
  const allRevokedPartitions = new Set<TP>();
  for (const [consumer, assigned] of assignments) {
    const owned = input.byId.get(consumer)!.ownedPartitions;
    const ownedSet = new Set(owned);
    for (const tp of assigned) if (!ownedSet.has(tp)) allAddedPartitions.set(tp, consumer);
    const assignedSet = new Set(assigned);
    for (const tp of owned) if (!assignedSet.has(tp)) allRevokedPartitions.add(tp);
  }
  for (const tp of allAddedPartitions.keys()) if (!allRevokedPartitions.has(tp)) allAddedPartitions.delete(tp);
  return allAddedPartitions;
}
