/**
 * The group identity a consumer holds right now, as Kafka's Java client exposes it with `groupMetadata()`:
 * what a transactional producer sends with the offsets it commits (KIP-447) so that the group coordinator
 * can fence a zombie member.
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
