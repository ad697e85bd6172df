/** Shared set-up of the consumer integration tests: brokers, topics, test data, and reading it back. */
import { encodeRecordBatch } from '../../../codecs/records/index.js';
import { Produce } from '../../../protocol/index.js';
import type { Client } from '../../../src/client.js';
import { sleep } from '../../../src/cluster/backoff.js';
import type { Consumer } from '../../../src/consumer/consumer.js';
import type { ConsumerRecord } from '../../../src/consumer/consumer-record.js';
import type { Connection } from '../../../src/network/connection.js';
import { uniqueTopicName } from '../../harness/context.js';

// The brokers to run against are the offsets suites' (one definition for every integration suite).
export { deleteRecordsBefore, newClient, type Target, targets, uniqueGroup } from '../offsets/setup.js';

/** A new topic whose partitions all have a leader (so the first produce does not race the election). */
export async function newTopic(client: Client, prefix: string, partitions = 1): Promise<string> {
  const name = uniqueTopicName(prefix);
  await client.admin.createTopics([{ name, numPartitions: partitions, replicationFactor: 1 }]);
  for (let i = 0; i < 100; i++) {
    const md = await client.cluster.metadata({ topics: [name], timeoutMs: 5_000 });
    const t = md.topics.get(name);
    if (t !== undefined && t.error === undefined && t.partitions.every((p) => p.leader >= 0)) return name;
    await sleep(100);
  }
  throw new Error(`topic ${name} has no leaders`);
}

/** The value test records carry: partition and sequence number, so a reader can check order and completeness. */
export function recordValue(partition: number, seq: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeInt32BE(partition, 0);
  b.writeInt32BE(seq, 4);
  b.write('tidemark', 8, 'latin1');
  return b;
}

/**
 * Writes `perPartition` records to every listed partition with direct Produce requests (batches of
 * `batchSize`, a few in flight per partition): fast enough for a million records, and independent of the
 * producer under test elsewhere. Record `i` of partition `p` has value recordValue(p, i) and offset i on a new topic.
 *
 * Pipelining is only order-safe while no request fails: a retried batch would land after the ones sent behind
 * it. A new topic's first write is where transient errors (a leader still loading) happen, so the first batch
 * goes alone and is retried; pipelined batches are not retried, and every batch's base offset is checked, so
 * a reordered load fails here, naming the batch, instead of looking like a consumer bug later.
 */
export async function produce(
  client: Client,
  topic: string,
  partitions: readonly number[],
  perPartition: number,
  options: { batchSize?: number; start?: number } = {},
): Promise<void> {
  const batchSize = options.batchSize ?? 500;
  const start = options.start ?? 0;
  const batch = (partition: number, first: number): Buffer => {
    const records = [];
    for (let i = first; i < Math.min(first + batchSize, start + perPartition); i++) {
      records.push({ key: Buffer.from(`k${i}`), value: recordValue(partition, i), timestamp: 1_700_000_000_000 + i });
    }
    return encodeRecordBatch(records);
  };
  await Promise.all(
    partitions.map(async (partition) => {
      const base = await produceBatch(client, topic, partition, batch(partition, start), { retries: 20 });
      // One connection for the rest: its requests reach the broker in the order they are sent, which separate
      // leaderFor() lookups (each may wait on a metadata refresh) do not promise.
      const conn = await client.cluster.leaderFor(topic, partition);
      // Up to four requests in flight; the first failure stops the partition's load and is thrown.
      const inflight = new Set<Promise<void>>();
      let failure: Error | undefined;
      for (let first = start + batchSize; first < start + perPartition && failure === undefined; first += batchSize) {
        const expected = base + BigInt(first - start);
        const sent = sendBatch(conn, topic, partition, batch(partition, first))
          .then((response) => {
            if (response.errorCode !== 0) throw new Error(`batch ${first} failed with code ${response.errorCode}`);
            if (response.baseOffset !== expected) {
              throw new Error(`batch ${first} landed at ${response.baseOffset}, not ${expected}`);
            }
          })
          .catch((err: Error) => {
            failure ??= new Error(`test data for ${topic}-${partition}: ${err.message}`, { cause: err });
          })
          .finally(() => inflight.delete(sent));
        inflight.add(sent);
        if (inflight.size >= 4) await Promise.race(inflight);
      }
      await Promise.all(inflight);
      if (failure !== undefined) throw failure;
    }),
  );
}

/** Sends one batch to the partition's leader, retrying up to `retries` times; returns its base offset. */
async function produceBatch(
  client: Client,
  topic: string,
  partition: number,
  records: Buffer,
  options: { retries: number },
): Promise<bigint> {
  for (let attempt = 0; ; attempt++) {
    const response = await sendBatch(await client.cluster.leaderFor(topic, partition), topic, partition, records);
    if (response.errorCode === 0) return response.baseOffset;
    if (attempt >= options.retries) {
      throw new Error(`Produce to ${topic}-${partition} failed with code ${response.errorCode}`);
    }
    client.cluster.metadataCache.invalidate(topic);
    await sleep(100);
  }
}

async function sendBatch(conn: Connection, topic: string, partition: number, records: Buffer) {
  const res = await conn.request(
    Produce,
    { acks: -1, timeoutMs: 30_000, topicData: [{ name: topic, partitionData: [{ index: partition, records }] }] },
    { version: Math.min(conn.versionFor(Produce), 12) },
  );
  return res.responses[0].partitionResponses[0];
}

/**
 * Reads exactly `count` records (throws after `timeoutMs`). The last batch is acked up to the last record
 * taken before leaving the loop, so the consumer's position is right after it, as with Java's max.poll.records.
 */
export async function readRecords(consumer: Consumer, count: number, timeoutMs = 30_000): Promise<ConsumerRecord[]> {
  const out: ConsumerRecord[] = [];
  if (count === 0) return out;
  const signal = AbortSignal.timeout(timeoutMs);
  for await (const batch of consumer.batches({ signal })) {
    for (const r of batch.records) {
      out.push(r);
      if (out.length === count) {
        batch.ack(r);
        return out;
      }
    }
  }
  return out;
}

/** `partition:offset` of each record, for compact comparisons. */
export function where(records: readonly ConsumerRecord[]): string[] {
  return records.map((r) => `${r.partition}:${r.offset}`);
}
