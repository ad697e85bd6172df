/** Shared set-up of the admin integration tests: both brokers, clients, topics, and Kafka's AdminClient. */
import { Client } from '../../../src/client.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';

/** Kafka 4.x always; Kafka 3.9 when this run has it. */
export const TARGETS = [
  { label: 'Kafka 4.x', legacy: false, at: () => bootstrap() },
  ...(legacyBootstrap() === null ? [] : [{ label: 'Kafka 3.9', legacy: true, at: () => legacyBootstrap() as string }]),
];

export function newClient(at: string): Client {
  return new Client({ bootstrap: at, requestTimeoutMs: 30_000 });
}

export async function newTopic(
  client: Client,
  prefix: string,
  partitions = 1,
  configs: Record<string, string> = {},
): Promise<string> {
  const name = uniqueTopicName(`admin-${prefix}`);
  await client.admin.createTopics([{ name, numPartitions: partitions, replicationFactor: 1, configs }]);
  // CreateTopics answers once the controller has the topic; each leader creates its log a moment later (on 3.9,
  // DescribeLogDirs straight after listed no replica yet). ListOffsets answers only from a leader with the log.
  await client.offsets.latest(name, { timeoutMs: 30_000 });
  return name;
}

/** Sorted by `name`, so two listings compare regardless of order. */
export function byName<T extends { name: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The id of the broker behind a single-node bootstrap. */
export async function brokerId(client: Client): Promise<string> {
  const md = await client.metadata({ topics: [] });
  return String([...md.brokers.keys()][0]);
}

/**
 * Waits until the KIP-848 group has one member holding `partitions` partitions, its current assignment equal
 * to its target (so a comparison does not race the coordinator's reconciliation).
 */
export async function waitForSettledKip848Member(client: Client, group: string, partitions: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [d] = await client.groups.describeGroups([group]);
    const m = d.members?.[0];
    const settled =
      d.state === 'Stable' &&
      d.members?.length === 1 &&
      m !== undefined &&
      m.assignment.length === partitions &&
      JSON.stringify(m.targetAssignment) === JSON.stringify(m.assignment);
    if (settled) return;
    if (Date.now() > deadline) throw new Error(`group ${group} did not settle: ${JSON.stringify(d)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
