import { TidemarkError } from '../../codecs/errors.js';
import {
  DescribeTopicPartitions,
  type DescribeTopicPartitionsRequestInput,
} from '../../protocol/apis/describe-topic-partitions.js';
import { type KafkaError, kafkaError } from '../../protocol/kafka-error.js';
import { ZERO_TOPIC_ID } from '../cluster/metadata.js';
import { type AdminCallOptions, type AdminContext, adminRequest } from './admin-context.js';
import { throwTopicErrors } from './errors.js';

/**
 * DescribeTopicPartitions (KIP-966): topics' partitions with leader, replicas, ISR and the eligible leader
 * replicas (ELR), which Metadata does not carry. The broker answers in pages of at most
 * `partitionLimit` partitions; the cursor it returns is followed until the last page, so the caller gets every
 * partition of every topic at once.
 */

export interface DescribedPartition {
  partition: number;
  /** -1 while there is none. */
  leader: number;
  leaderEpoch: number;
  replicas: number[];
  isr: number[];
  /** Replicas that may become leader although out of the ISR (KIP-966); null when the broker has no ELR. */
  eligibleLeaderReplicas: number[] | null;
  lastKnownElr: number[] | null;
  offlineReplicas: number[];
}

/** One topic as DescribeTopicPartitions (KIP-966) describes it, every page of partitions joined. */
export interface DescribedTopicPartitions {
  name: string;
  topicId: string | undefined;
  isInternal: boolean;
  /** Sorted by partition number. */
  partitions: DescribedPartition[];
}

export interface DescribeTopicPartitionsOptions extends AdminCallOptions {
  /** Partitions per response page (default 2000, the broker's own default). */
  partitionLimit?: number;
}

/** A bound on pages, so a broker whose cursor never ends cannot keep the call going until its deadline. */
const MAX_PAGES = 100_000;

/**
 * Every partition of the named topics. An unknown topic is thrown as UNKNOWN_TOPIC_OR_PARTITION naming it
 * (several failed topics as TopicErrors, with the topics that were described).
 */
export async function describeTopicPartitions(
  ctx: AdminContext,
  names: readonly string[],
  options: DescribeTopicPartitionsOptions = {},
): Promise<DescribedTopicPartitions[]> {
  if (names.length === 0) throw new TidemarkError('no topics given');
  const limit = options.partitionLimit ?? 2000;
  if (!Number.isInteger(limit) || limit < 1) throw new TidemarkError(`partitionLimit must be >= 1, got ${limit}`);
  const topics = new Map<string, DescribedTopicPartitions>();
  const errors = new Map<string, KafkaError>();
  let cursor: { topicName: string; partitionIndex: number } | null = null;
  for (let page = 0; ; page++) {
    if (page >= MAX_PAGES) throw new TidemarkError(`DescribeTopicPartitions: still paging after ${MAX_PAGES} pages`);
    const request: DescribeTopicPartitionsRequestInput = {
      topics: names.map((name) => ({ name })),
      responsePartitionLimit: limit,
      cursor,
    };
    const { response, version } = await adminRequest(ctx, DescribeTopicPartitions, () => request, options);
    for (const t of response.topics) {
      const name = t.name ?? t.topicId;
      if (t.errorCode !== 0) {
        const context = { api: 'DescribeTopicPartitions', version, topic: name };
        errors.set(name, kafkaError(t.errorCode, { context }));
        continue;
      }
      let topic = topics.get(name);
      if (topic === undefined) {
        topic = {
          name,
          topicId: t.topicId === ZERO_TOPIC_ID ? undefined : t.topicId,
          isInternal: t.isInternal,
          partitions: [],
        };
        topics.set(name, topic);
      }
      for (const p of t.partitions) {
        if (p.errorCode !== 0) {
          const context = { api: 'DescribeTopicPartitions', version, topic: name, partition: p.partitionIndex };
          errors.set(`${name}-${p.partitionIndex}`, kafkaError(p.errorCode, { context }));
          continue;
        }
        topic.partitions.push({
          partition: p.partitionIndex,
          leader: p.leaderId,
          leaderEpoch: p.leaderEpoch,
          replicas: p.replicaNodes,
          isr: p.isrNodes,
          eligibleLeaderReplicas: p.eligibleLeaderReplicas,
          lastKnownElr: p.lastKnownElr,
          offlineReplicas: p.offlineReplicas,
        });
      }
    }
    const next: { topicName: string; partitionIndex: number } | null = response.nextCursor;
    if (next === null) break;
    // A cursor that does not move forward would page forever.
    if (cursor !== null && next.topicName === cursor.topicName && next.partitionIndex <= cursor.partitionIndex) {
      throw new TidemarkError(`DescribeTopicPartitions: the broker's cursor did not advance (${next.topicName})`);
    }
    cursor = { topicName: next.topicName, partitionIndex: next.partitionIndex };
  }
  const described = names.flatMap((n) => {
    const t = topics.get(n);
    if (t === undefined) return [];
    t.partitions.sort((a, b) => a.partition - b.partition);
    return [t];
  });
  throwTopicErrors('DescribeTopicPartitions', errors, described);
  return described;
}
