/**
 * Fresh topics for the produce and latency benchmarks: one per client per round, created empty and ready
 * (every partition has a leader in this broker's metadata) before the client starts, counted by their end
 * offsets afterwards (the produce bench's verification) and deleted, so rounds do not fill the disk.
 */
import type { Client } from '../src/client.js';
import { eventually } from '../test/harness/eventually.js';

export async function createFreshTopic(client: Client, name: string, partitions: number): Promise<void> {
  await client.admin.createTopics([{ name, numPartitions: partitions, replicationFactor: 1 }]);
  // The broker serves metadata from its own replay of the metadata log: wait until it shows every leader.
  await eventually(async () => {
    const meta = await client.metadata({ topics: [name] });
    const t = meta.topics.get(name);
    if (t === undefined || t.partitions.length !== partitions || t.partitions.some((p) => p.leader < 0))
      throw new Error(`topic ${name} is not ready`);
  }, 30_000);
}

/** The sum of the topic's end offsets: on a fresh topic without transactions, the records written. */
export async function endOffsetSum(client: Client, name: string): Promise<number> {
  const meta = await client.metadata({ topics: [name] });
  const t = meta.topics.get(name);
  if (t === undefined) throw new Error(`no topic ${name}`);
  const latest = await client.offsets.list(
    t.partitions.map((p) => ({ topic: name, partition: p.partition, spec: 'latest' as const })),
  );
  return Number(latest.reduce((sum, o) => sum + o.offset, 0n));
}

export async function deleteTopicQuietly(client: Client, name: string): Promise<void> {
  await client.admin.deleteTopics([name]).catch(() => {});
}
