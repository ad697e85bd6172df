import { partitionKey, type TopicPartition } from '../../cluster/partition-errors.js';

/** Set arithmetic on partition lists, as membership compares assignments before and after a rebalance. */

/** Sorted by topic, then partition: the order every list membership hands out is in. */
export function sortPartitions(list: Iterable<TopicPartition>): TopicPartition[] {
  return [...list]
    .map(({ topic, partition }) => ({ topic, partition }))
    .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
}

/** The partitions of `a` that are not in `b`, sorted. */
export function minus(a: Iterable<TopicPartition>, b: Iterable<TopicPartition>): TopicPartition[] {
  const drop = new Set<string>();
  for (const tp of b) drop.add(partitionKey(tp.topic, tp.partition));
  return sortPartitions([...a].filter((tp) => !drop.has(partitionKey(tp.topic, tp.partition))));
}

/** `a` and `b` together without duplicates, sorted. */
export function union(a: Iterable<TopicPartition>, b: Iterable<TopicPartition>): TopicPartition[] {
  const seen = new Map<string, TopicPartition>();
  for (const tp of [...a, ...b]) seen.set(partitionKey(tp.topic, tp.partition), tp);
  return sortPartitions(seen.values());
}

/** The inverse of groupByTopic (src/cluster/group-by.ts). */
export function flattenTopics(grouped: Iterable<{ topic: string; partitions: readonly number[] }>): TopicPartition[] {
  const out: TopicPartition[] = [];
  for (const t of grouped) for (const partition of t.partitions) out.push({ topic: t.topic, partition });
  return sortPartitions(out);
}
