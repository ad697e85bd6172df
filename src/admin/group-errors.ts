import { TidemarkError } from '../../codecs/errors.js';

/**
 * A group's committed offsets can only be changed while it has no live members (state Empty, or Dead: no such
 * group yet); Kafka's kafka-consumer-groups refuses the same way, and the coordinator itself answers a commit
 * from outside a live group with UNKNOWN_MEMBER_ID. Stop the group's consumers first.
 */
export class GroupNotEmptyError extends TidemarkError {
  override name = 'GroupNotEmptyError';

  constructor(
    readonly groupId: string,
    /** The group state the coordinator reported, e.g. Stable or PreparingRebalance. */
    readonly state: string,
    /** Live members, when known (undefined for KIP-848 groups, which DescribeGroups does not describe). */
    readonly memberCount: number | undefined,
    options: { cause?: unknown } = {},
  ) {
    const members = memberCount === undefined ? '' : ` with ${memberCount} member${memberCount === 1 ? '' : 's'}`;
    super(
      `the offsets of group ${JSON.stringify(groupId)} can only be changed while it is inactive (Empty), ` +
        `but it is ${state}${members}; stop its consumers first`,
      { cause: options.cause },
    );
  }
}

/** A shift-by reset of a partition the group has never committed: there is nothing to shift from. */
export class NoCommittedOffsetError extends TidemarkError {
  override name = 'NoCommittedOffsetError';

  constructor(
    readonly groupId: string,
    readonly topic: string,
    readonly partition: number,
  ) {
    super(`cannot shift the offset of ${topic}-${partition} for group ${groupId}: it has no committed offset`);
  }
}

/** An offsets export that cannot be imported: not JSON, not tidemark's format, or a field of the wrong type. */
export class InvalidOffsetsExportError extends TidemarkError {
  override name = 'InvalidOffsetsExportError';

  constructor(problem: string, options: { cause?: unknown } = {}) {
    super(`invalid offsets export: ${problem}`, { cause: options.cause });
  }
}
