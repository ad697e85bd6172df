import { TidemarkError } from '../../../codecs/errors.js';
import type { KafkaError } from '../../../protocol/kafka-error.js';
import type { TopicPartition } from '../../cluster/partition-errors.js';

/** Something about a consumer group member; `groupId` names the group. */
export class GroupMembershipError extends TidemarkError {
  override name = 'GroupMembershipError';

  constructor(
    readonly groupId: string,
    message: string,
    options?: { cause?: unknown; retriable?: boolean },
  ) {
    super(`group ${groupId}: ${message}`, options);
  }
}

/**
 * The member holds no generation (classic) or member epoch (KIP-848) that the coordinator would accept a commit
 * under right now: it is joining, rebalancing, or has just lost its membership. Retriable: commit again once the
 * rebalance is over; partitions that moved meanwhile must not be committed (their new owner decides).
 */
export class MemberNotStableError extends GroupMembershipError {
  override name = 'MemberNotStableError';

  constructor(
    groupId: string,
    readonly state: string,
  ) {
    super(groupId, `the member is not in a stable generation (state: ${state})`, { retriable: true });
  }
}

/**
 * The application did not come back for records within max poll interval, so the member left the group (as
 * Java's consumer does) and its partitions were given up as lost. Thrown once by the next `notePoll()`, which
 * also starts the rejoin. The application must poll more often, process less per poll, or raise the interval.
 */
export class MaxPollIntervalExceededError extends GroupMembershipError {
  override name = 'MaxPollIntervalExceededError';

  constructor(
    groupId: string,
    readonly maxPollIntervalMs: number,
    readonly lostPartitions: readonly TopicPartition[],
  ) {
    super(
      groupId,
      `no poll within max poll interval (${maxPollIntervalMs} ms): the member left the group and gave up ` +
        `${lostPartitions.length} partitions; it rejoins now`,
      { retriable: true },
    );
  }
}

/**
 * The coordinator refused the member for a reason the application must deal with (the Kafka code is
 * `errorName`, the broker's error is `kafkaError`). `fatal` errors end the membership: every later call throws
 * them and a new consumer is needed. Non-fatal ones (GROUP_MAX_SIZE_REACHED) are reported, and the member keeps
 * trying to join with backoff.
 */
export class GroupJoinRefusedError extends GroupMembershipError {
  override name = 'GroupJoinRefusedError';
  readonly errorName: string;

  constructor(
    groupId: string,
    readonly kafkaError: KafkaError,
    readonly fatal: boolean,
    hint: string,
  ) {
    super(groupId, `${kafkaError.errorName}: ${hint}`, { cause: kafkaError, retriable: !fatal });
    this.errorName = kafkaError.errorName;
  }
}

/** Another process with the same group instance id (static membership) took this member's place. Fatal. */
export class FencedInstanceIdError extends GroupJoinRefusedError {
  override name = 'FencedInstanceIdError';

  constructor(
    groupId: string,
    cause: KafkaError,
    readonly groupInstanceId: string | null,
  ) {
    super(groupId, cause, true, `another member with group instance id ${groupInstanceId} replaced this one`);
  }
}

/** The group already has `group.max.size` members. Reported; the member retries joining with backoff. */
export class GroupMaxSizeReachedError extends GroupJoinRefusedError {
  override name = 'GroupMaxSizeReachedError';

  constructor(groupId: string, cause: KafkaError) {
    super(groupId, cause, false, 'the group is full (group.max.size); retrying to join with backoff');
  }
}

/** The broker does not run the KIP-848 consumer group protocol (Kafka < 4.0, or not enabled). Fatal. */
export class GroupProtocolUnsupportedError extends GroupMembershipError {
  override name = 'GroupProtocolUnsupportedError';

  constructor(groupId: string, detail: string, cause?: unknown) {
    super(groupId, `the broker does not support the consumer group protocol (KIP-848): ${detail}`, { cause });
  }
}

/** A rebalance listener callback threw or rejected; the rebalance went on, and the error is reported once. */
export class RebalanceListenerError extends GroupMembershipError {
  override name = 'RebalanceListenerError';

  constructor(
    groupId: string,
    readonly callback: 'onAssigned' | 'onRevoked' | 'onLost',
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(groupId, `rebalance listener ${callback} failed: ${detail}`, { cause });
  }
}

/** The membership was left (or failed) and cannot be used again. */
export class MembershipClosedError extends GroupMembershipError {
  override name = 'MembershipClosedError';

  constructor(groupId: string) {
    super(groupId, 'the membership has left the group; create a new one to join again');
  }
}
