/**
 * The one type for a group member's identity: what `consumer.groupMetadata()` returns (Java's name), what a
 * commit is made under (the OffsetStore's `CommitOptions.generation`, the `member` of `commitOffsets`, the
 * membership's `commitContext()`), and what a transactional producer sends with the offsets it commits
 * (KIP-447) so that the group coordinator can fence a zombie member. It lives with the OffsetStore contract,
 * low enough for the commit layer, the consumer and the producer to share it.
 */
export interface ConsumerGroupMetadata {
  /** The group's id. */
  readonly groupId: string;
  /** The member id the coordinator gave this member; '' before the first join. */
  readonly memberId: string;
  /** The classic generation id, or the KIP-848 member epoch; -1 when not in a group. */
  readonly generationId: number;
  /** The static membership id (KIP-345), or null when the member has none. */
  readonly groupInstanceId: string | null;
}
