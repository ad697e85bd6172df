import { TidemarkError } from '../../codecs/errors.js';
import type { TopicPartition } from '../cluster/partition-errors.js';

/**
 * The consumer's own typed failures. Offset-range failures reuse src/offsets' OffsetOutOfRangeError and
 * NoStoredOffsetError, so the start-up check and the fetch loop report a bad position the same way.
 */

function where(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

/** A call named a partition this consumer does not own (not assigned, or revoked by the group). */
export class PartitionNotAssignedError extends TidemarkError {
  override name = 'PartitionNotAssignedError';

  constructor(readonly tp: TopicPartition) {
    super(`${where(tp)} is not assigned to this consumer`);
  }
}

/** The consumer was closed: iteration ends, and calls that need the consumer fail with this. */
export class ConsumerClosedError extends TidemarkError {
  override name = 'ConsumerClosedError';

  constructor() {
    super('the consumer is closed');
  }
}

/** How a truncation was found: asked of the leader (OffsetForLeaderEpoch), or told by a Fetch response. */
export type TruncationSource = 'offset-for-leader-epoch' | 'fetch-diverging-epoch';

/**
 * KIP-320: the log no longer holds the consumer's position: records at or after `divergedAt` were removed or
 * replaced (an unclean leader election, or a position from another incarnation of the topic). Raised only with
 * auto offset reset `none`; with the other policies the consumer moves to `divergedAt` and emits a
 * `truncation` event instead.
 */
export class LogTruncationError extends TidemarkError {
  override name = 'LogTruncationError';

  constructor(
    readonly topic: string,
    readonly partition: number,
    /** The position that no longer exists, and the leader epoch it was read in. */
    readonly position: { offset: bigint; leaderEpoch: number },
    /** The first offset that may differ from what was read; undefined when the leader knows no such epoch. */
    readonly divergedAt: bigint | undefined,
    readonly detectedBy: TruncationSource,
  ) {
    const at = divergedAt === undefined ? 'the leader has no record of its epoch' : `the log diverged at ${divergedAt}`;
    super(
      `${topic}-${partition}: position ${position.offset} (leader epoch ${position.leaderEpoch}) is no longer in the log: ${at}; seek to resume`,
    );
  }
}

/**
 * A commit the group coordinator refused because this member's generation or member epoch is no longer current
 * (a rebalance happened): the partitions may belong to another member now, so it is not retried.
 */
export class CommitFailedError extends TidemarkError {
  override name = 'CommitFailedError';

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`commit refused: ${reason}`, options);
  }
}

/**
 * A partition's next record is larger than the fetch size and the broker is too old (Fetch v0-2) to return it
 * anyway: raise maxPartitionFetchBytes.
 */
export class RecordTooLargeError extends TidemarkError {
  override name = 'RecordTooLargeError';

  constructor(
    readonly tp: TopicPartition,
    readonly offset: bigint,
    readonly fetchBytes: number,
  ) {
    super(`${where(tp)}: the record at offset ${offset} is larger than maxPartitionFetchBytes (${fetchBytes})`);
  }
}

/** Two iterators read from one consumer at once; records would be split between them unpredictably. */
export class IteratorInUseError extends TidemarkError {
  override name = 'IteratorInUseError';

  constructor() {
    super('another iterator is already reading from this consumer; finish (break out of) it first');
  }
}
