/** Bucketing helpers for building requests: items by any key, and partitions by topic as the wire lists them. */

/** Items bucketed by a key, in first-seen order (requests are built one per leader, topic, or coordinator). */
export function groupBy<K, V>(items: Iterable<V>, keyOf: (item: V) => K): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [item]);
    else list.push(item);
  }
  return groups;
}

/**
 * Partitions as the wire lists them, `{ topic, partitions }`: topics in name order, partitions ascending, each
 * once. Every request and assignment that groups partitions by topic uses this one.
 */
export function groupByTopic(
  list: Iterable<{ topic: string; partition: number }>,
): Array<{ topic: string; partitions: number[] }> {
  const byTopic = new Map<string, Set<number>>();
  for (const { topic, partition } of list) {
    const partitions = byTopic.get(topic);
    if (partitions === undefined) byTopic.set(topic, new Set([partition]));
    else partitions.add(partition);
  }
  return [...byTopic.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((topic) => ({ topic, partitions: [...byTopic.get(topic)!].sort((a, b) => a - b) }));
}
