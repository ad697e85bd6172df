import { ProtocolError, TidemarkError } from '../../codecs/errors.js';
import { isKafkaError } from '../../protocol/kafka-error.js';
import type { Connection } from '../network/connection.js';
import { RequestAbortedError } from '../network/errors.js';
import type { BackoffOptions } from './backoff.js';
import { CallTimeoutError, type Deadline, isRetriable } from './deadline.js';
import { groupBy } from './group-by.js';
import type { PartitionMetadata } from './metadata.js';
import type { PartitionFailure, TopicPartition } from './partition-errors.js';

/** What a per-leader fan-out needs of the cluster (a narrow view, so tests can stand in for it). */
export interface LeaderLookup {
  partitionMetadata(topic: string, partition: number): Promise<PartitionMetadata>;
  connectionTo(nodeId: number): Promise<Connection>;
  noteError(err: unknown, topic?: string): void;
}

/** One query on its way to the partition's leader, with the leader epoch metadata knows (for fencing). */
export interface LeaderItem<Q> {
  query: Q;
  currentLeaderEpoch: number;
}

/** The leader's answer for one query: a result, or the partition's error. */
export type LeaderAnswer<Q, R> = { query: Q; result: R } | { query: Q; error: TidemarkError };

export interface FanOutResult<Q, R> {
  results: Map<Q, R>;
  failures: PartitionFailure[];
}

/**
 * Sends per-partition queries to the partitions' leaders, one request per leader, and retries what failed retriably
 * (leader moved, broker down, request timed out, a garbled answer) after refreshing metadata, with backoff, until the
 * deadline. Errors that are not retriable are collected per partition; an error of the whole request that is not
 * retriable (an unsupported version) is thrown, since every other leader would answer it the same way.
 */
export async function sendToLeaders<Q extends TopicPartition, R>(
  cluster: LeaderLookup,
  queries: readonly Q[],
  deadline: Deadline,
  send: (connection: Connection, items: LeaderItem<Q>[]) => Promise<LeaderAnswer<Q, R>[]>,
  backoff?: BackoffOptions,
): Promise<FanOutResult<Q, R>> {
  const results = new Map<Q, R>();
  const failures: PartitionFailure[] = [];
  let pending = [...queries];
  let lastError: unknown;
  for (let round = 0; pending.length > 0; round++) {
    if (round > 0) await deadline.backoff(round, lastError, backoff);
    const retryNext: Q[] = [];
    const fail = (query: Q, err: unknown) => {
      if (isOverError(err, deadline)) throw deadline.failure(err);
      // A garbled answer is retried too: the next one need not be.
      if (isRetriable(err) || err instanceof ProtocolError) {
        lastError = err;
        retryNext.push(query);
      } else {
        failures.push({ topic: query.topic, partition: query.partition, error: asTidemarkError(err) });
      }
    };

    const located: { leader: number; item: LeaderItem<Q> }[] = [];
    await Promise.all(
      pending.map(async (query) => {
        try {
          const p = await deadline.race(cluster.partitionMetadata(query.topic, query.partition));
          located.push({ leader: p.leader, item: { query, currentLeaderEpoch: p.leaderEpoch } });
        } catch (err) {
          // Metadata already refreshed once for this answer: a topic that does not exist will not appear by retrying.
          if (isKafkaError(err, 'UNKNOWN_TOPIC_OR_PARTITION')) {
            failures.push({ topic: query.topic, partition: query.partition, error: err });
          } else fail(query, err);
        }
      }),
    );

    const byLeader = groupBy(located, (l) => l.leader);
    await Promise.all(
      [...byLeader].map(async ([nodeId, entries]) => {
        const items = entries.map((e) => e.item);
        let answers: LeaderAnswer<Q, R>[];
        try {
          const connection = await deadline.race(cluster.connectionTo(nodeId));
          answers = await deadline.race(send(connection, items));
        } catch (err) {
          if (!isOverError(err, deadline) && !isRetriable(err) && !(err instanceof ProtocolError)) throw err;
          for (const topic of new Set(items.map((i) => i.query.topic))) cluster.noteError(err, topic);
          for (const item of items) fail(item.query, err);
          return;
        }
        const answered = new Set<Q>();
        for (const answer of answers) {
          answered.add(answer.query);
          if ('result' in answer) results.set(answer.query, answer.result);
          else {
            cluster.noteError(answer.error, answer.query.topic);
            fail(answer.query, answer.error);
          }
        }
        for (const item of items) {
          if (!answered.has(item.query)) {
            const { topic, partition } = item.query;
            fail(item.query, new TidemarkError(`broker ${nodeId} did not answer for ${topic}-${partition}`));
          }
        }
      }),
    );
    pending = retryNext;
  }
  return { results, failures };
}

function isOverError(err: unknown, deadline: Deadline): boolean {
  return err instanceof CallTimeoutError || err instanceof RequestAbortedError || deadline.isOver;
}

function asTidemarkError(err: unknown): TidemarkError {
  return err instanceof TidemarkError ? err : new TidemarkError(String((err as Error)?.message ?? err), { cause: err });
}
