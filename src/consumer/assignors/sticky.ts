import type { AssignmentMetadata, MemberAssignment } from './assignor.js';
import type { AssignmentInput, Subscription } from './common.js';
import { AbstractStickyAssignor, type MemberData } from './sticky/abstract-sticky.js';
import { decodeStickyUserData, encodeStickyUserData } from './sticky/user-data.js';

/**
 * Kafka's `StickyAssignor` (protocol `sticky`): balanced like roundrobin, but
 * keeping partitions where they were as far as balance allows. It uses the
 * eager protocol, so members give up all partitions before rejoining and
 * report what they had in userData (with their generation), not in the
 * subscription's ownedPartitions, which this assignor ignores.
 */
export class StickyAssignor extends AbstractStickyAssignor {
  readonly name = 'sticky';
  readonly protocols = ['eager'] as const;

  private memberAssignment: Array<{ topic: string; partition: number }> | undefined;
  private generation = -1;

  onAssignment(assignment: MemberAssignment, metadata: AssignmentMetadata): void {
    this.memberAssignment = assignment.partitions.flatMap((t) =>
      t.partitions.map((partition) => ({ topic: t.topic, partition })),
    );
    this.generation = metadata.generationId;
  }

  /** Nothing before the first assignment; then the last assignment and its generation. */
  subscriptionUserData(_topics: ReadonlySet<string>): Uint8Array | null {
    if (this.memberAssignment === undefined) return null;
    return encodeStickyUserData({ partitions: this.memberAssignment, generation: this.generation });
  }

  protected memberData(subscription: Subscription, input: AssignmentInput): MemberData {
    const data = decodeStickyUserData(subscription.userData);
    return {
      partitions: data.partitions.map((tp) => input.tps.get(tp.topic, tp.partition)),
      generation: data.generation,
    };
  }
}
