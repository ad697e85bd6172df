/** Shared set-up of the offsets integration tests: the brokers to run against, topics, record deletion. */
import { DeleteRecords } from '../../../protocol/apis/delete-records.js';
import { Client } from '../../../src/client.js';
import {
  bootstrap,
  kafkaVersion,
  legacyBootstrap,
  legacyKafkaVersion,
  uniqueTopicName,
} from '../../harness/context.js';

export interface Target {
  label: string;
  bootstrap: string;
  /** 4 for Kafka 4.x, 3 for 3.9. */
  major: number;
}

/** The 4.x broker, and the 3.9 one when this run has it. */
export function targets(): Target[] {
  const list: Target[] = [{ label: `Kafka ${kafkaVersion() ?? '4.x'}`, bootstrap: bootstrap(), major: 4 }];
  const legacy = legacyBootstrap();
  if (legacy !== null) list.push({ label: `Kafka ${legacyKafkaVersion() ?? '3.9'}`, bootstrap: legacy, major: 3 });
  return list;
}

export function newClient(target: Target): Client {
  return new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
}

export async function newTopic(client: Client, prefix: string, partitions = 1): Promise<string> {
  const name = uniqueTopicName(prefix);
  await client.admin.createTopics([{ name, numPartitions: partitions, replicationFactor: 1 }]);
  return name;
}

export function uniqueGroup(prefix: string): string {
  return uniqueTopicName(`grp-${prefix}`);
}

/** Moves a partition's log start offset forward (DeleteRecords), so earliest is no longer 0. */
export async function deleteRecordsBefore(client: Client, topic: string, partition: number, offset: bigint) {
  const connection = await client.cluster.leaderFor(topic, partition);
  const response = await connection.request(DeleteRecords, {
    topics: [{ name: topic, partitions: [{ partitionIndex: partition, offset }] }],
    timeoutMs: 10_000,
  });
  const code = response.topics[0].partitions[0].errorCode;
  if (code !== 0) throw new Error(`DeleteRecords failed with code ${code}`);
}

/** Committed offsets as `topic-partition → offset` strings, for comparing tidemark's and Java's views. */
export function offsetMap(entries: { topic: string; partition: number; offset: bigint | string | null }[]) {
  return Object.fromEntries(
    entries
      .filter((e) => e.offset !== null)
      .map((e) => [`${e.topic}-${e.partition}`, String(e.offset)])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
