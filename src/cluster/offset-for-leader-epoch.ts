import { OffsetForLeaderEpoch } from '../../protocol/apis/offset-for-leader-epoch.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import type { Connection } from '../network/connection.js';
import { type CallOptions, Deadline } from './deadline.js';
import { groupBy } from './group-by.js';
import { type LeaderAnswer, type LeaderItem, sendToLeaders } from './leader-requests.js';
import type { ListOffsetsContext } from './list-offsets.js';
import { throwPartitionFailures } from './partition-errors.js';

export interface EpochQuery {
  topic: string;
  partition: number;
  /** The epoch whose end offset is wanted. */
  leaderEpoch: number;
}

/** Where an epoch ends in the leader's log (KIP-101/KIP-320). */
export interface EpochEndOffset {
  topic: string;
  partition: number;
  /** The largest epoch the leader has that is not above the one asked for; -1 when it has none. */
  leaderEpoch: number;
  /** The first offset after that epoch (the log end offset for the current epoch); -1 when unknown. */
  endOffset: bigint;
}

/** A stored position to validate: the next offset to read and the leader epoch of the record before it. */
export interface EpochPosition {
  topic: string;
  partition: number;
  offset: bigint;
  /** -1 when unknown (committed by a client without KIP-320): such a position cannot be checked. */
  leaderEpoch: number;
}

export type TruncationStatus =
  /** The log holds the position's epoch up to at least the position: reading may go on from it. */
  | 'valid'
  /** The log diverged below the position: records between `validPosition` and the position are gone or replaced. */
  | 'truncated'
  /**
   * The leader knows no epoch at or below the position's (the position is from a newer epoch than any in the
   * log, e.g. a topic deleted and re-created): there is no divergence point; reset by policy.
   */
  | 'unknown-epoch'
  /** The position carries no leader epoch, so there was nothing to check. */
  | 'unchecked';

export interface TruncationCheck {
  topic: string;
  partition: number;
  position: { offset: bigint; leaderEpoch: number };
  status: TruncationStatus;
  /** Whether the log no longer has the position (status `truncated` or `unknown-epoch`). */
  truncated: boolean;
  /**
   * Where reading may safely go on: the position itself when valid or unchecked; the end of the largest epoch not
   * above the position's when truncated (what Java's consumer seeks to); undefined for `unknown-epoch`.
   */
  validPosition: { offset: bigint; leaderEpoch: number } | undefined;
  /** The leader's answer, when it was asked. */
  epochEnd: EpochEndOffset | undefined;
}

/** The end offsets of the given leader epochs, asked of each partition's leader (one request per leader). */
export async function epochEndOffsets(
  ctx: ListOffsetsContext,
  queries: readonly EpochQuery[],
  options: CallOptions & { version?: number } = {},
): Promise<EpochEndOffset[]> {
  const deadline = Deadline.of('OffsetForLeaderEpoch', options, ctx.requestTimeoutMs);
  const { results, failures } = await sendToLeaders(
    ctx.cluster,
    queries,
    deadline,
    (connection, items) => send(connection, items, deadline, ctx.requestTimeoutMs, options.version),
    ctx.backoff,
  );
  const answers = queries.flatMap((q) => {
    const r = results.get(q);
    return r === undefined ? [] : [r];
  });
  throwPartitionFailures('OffsetForLeaderEpoch', failures, answers);
  return answers;
}

/**
 * KIP-320 validation of stored positions: asks each leader where the position's epoch ends, and reports
 * whether the log was truncated below the position and where reading may safely resume.
 */
export async function checkTruncation(
  ctx: ListOffsetsContext,
  positions: readonly EpochPosition[],
  options: CallOptions & { version?: number } = {},
): Promise<TruncationCheck[]> {
  const checkable = positions.filter((p) => p.leaderEpoch >= 0);
  const ends = checkable.length === 0 ? [] : await epochEndOffsets(ctx, checkable, options);
  const endFor = new Map(checkable.map((p, i) => [p, ends[i]]));
  return positions.map((p) => judgeTruncation(p, endFor.get(p)));
}

/** The decision itself, as Java's consumer makes it (SubscriptionState.maybeCompleteValidation). */
export function judgeTruncation(p: EpochPosition, end: EpochEndOffset | undefined): TruncationCheck {
  const position = { offset: p.offset, leaderEpoch: p.leaderEpoch };
  const base = { topic: p.topic, partition: p.partition, position, epochEnd: end };
  if (end === undefined || p.leaderEpoch < 0) {
    return { ...base, status: 'unchecked', truncated: false, validPosition: position };
  }
  if (end.endOffset < 0n || end.leaderEpoch < 0) {
    return { ...base, status: 'unknown-epoch', truncated: true, validPosition: undefined };
  }
  if (end.endOffset < p.offset) {
    const validPosition = { offset: end.endOffset, leaderEpoch: end.leaderEpoch };
    return { ...base, status: 'truncated', truncated: true, validPosition };
  }
  return { ...base, status: 'valid', truncated: false, validPosition: position };
}

async function send(
  connection: Connection,
  items: LeaderItem<EpochQuery>[],
  deadline: Deadline,
  requestTimeoutMs: number,
  forcedVersion: number | undefined,
): Promise<LeaderAnswer<EpochQuery, EpochEndOffset>[]> {
  const version = forcedVersion ?? connection.versionFor(OffsetForLeaderEpoch);
  // The same partition asked about for two epochs would be ambiguous in the answer: ask in separate requests.
  const duplicates = items.filter((item, i) =>
    items.some((o, j) => j < i && o.query.topic === item.query.topic && o.query.partition === item.query.partition),
  );
  if (duplicates.length > 0) {
    const first = items.filter((i) => !duplicates.includes(i));
    const [a, b] = await Promise.all([
      send(connection, first, deadline, requestTimeoutMs, forcedVersion),
      send(connection, duplicates, deadline, requestTimeoutMs, forcedVersion),
    ]);
    return [...a, ...b];
  }
  const byTopic = groupBy(items, (item) => item.query.topic);
  const response = await connection.request(
    OffsetForLeaderEpoch,
    {
      // A consumer: the broker then answers only from the leader and checks the current epoch.
      replicaId: -1,
      topics: [...byTopic].map(([topic, list]) => ({
        topic,
        partitions: list.map(({ query, currentLeaderEpoch }) => ({
          partition: query.partition,
          currentLeaderEpoch,
          leaderEpoch: query.leaderEpoch,
        })),
      })),
    },
    { ...deadline.requestOptions(requestTimeoutMs), version },
  );
  const answers: LeaderAnswer<EpochQuery, EpochEndOffset>[] = [];
  for (const t of response.topics) {
    for (const p of t.partitions) {
      const item = byTopic.get(t.topic)?.find((i) => i.query.partition === p.partition);
      if (item === undefined) continue;
      if (p.errorCode !== 0) {
        const context = { api: 'OffsetForLeaderEpoch', version, topic: t.topic, partition: p.partition };
        answers.push({ query: item.query, error: kafkaError(p.errorCode, { context }) });
      } else {
        // v0 answers no epoch: the end offset is then that of the epoch asked for (or -1).
        const leaderEpoch = version === 0 && p.endOffset >= 0n ? item.query.leaderEpoch : p.leaderEpoch;
        answers.push({
          query: item.query,
          result: { topic: t.topic, partition: p.partition, leaderEpoch, endOffset: p.endOffset },
        });
      }
    }
  }
  return answers;
}
