/**
 * A partition leader crashes (SIGKILL) in a three-node KRaft cluster while a consumer reads from it and while an
 * idempotent acks=all producer writes to it. The cluster is started by this file (the shared brokers are single
 * nodes and must stay up); topics have replication factor 3 and min.insync.replicas 2, so one dead node loses
 * nothing that was acknowledged. Every wait has a deadline: a client that hangs fails the test instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TidemarkError } from '../../../codecs/errors.js';
import { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { type KafkaCluster, startCluster } from '../../harness/cluster.js';
import { uniqueTopicName } from '../../harness/context.js';
import { readBack } from '../producer/read-back.js';

const CONSUME_RECORDS = 6_000;
const PRODUCE_RECORDS = 6_000;
/** Records in flight in the producer test: enough that the kill lands among outstanding batches. */
const PRODUCE_WINDOW = 400;
const SECOND_KILL_RECORDS = 3_000;

/** Rejects with a message naming what hung once ms have passed. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not true within ${ms} ms`);
}

const value = (i: number) => Buffer.from(`record-${String(i).padStart(6, '0')}-${'x'.repeat(80)}`);
const indexOf = (v: Buffer | string | null) => Number(String(v).slice(7, 13));

let cluster: KafkaCluster;
let client: Client;
/** Numbers for the README's reliability table, printed at the end. */
const numbers: Record<string, unknown> = {};

async function leaderOf(topic: string, partition = 0): Promise<number> {
  const md = await client.metadata({ topics: [topic] });
  return md.topics.get(topic)!.partitions[partition].leader;
}

/** Every partition of topic has a live leader and all three replicas in sync. */
async function fullyReplicated(topic: string): Promise<boolean> {
  const md = await client.metadata({ topics: [topic] });
  return md.topics.get(topic)!.partitions.every((p) => p.leader >= 0 && p.isr.length === 3);
}

/** Restarts the killed node and waits until the cluster and the topic's replicas are whole again. */
async function restartAndHeal(nodeId: number, topic: string): Promise<void> {
  const t0 = Date.now();
  await cluster.node(nodeId).restart({ timeoutMs: 120_000 });
  await cluster.waitUntilWhole(60_000);
  await until(`${topic} back to 3 in-sync replicas`, 90_000, () => fullyReplicated(topic));
  numbers[`restart node ${nodeId} until whole (ms)`] = Date.now() - t0;
}

beforeAll(async () => {
  cluster = await startCluster({ brokers: 3, name: `leader-kill-${process.pid}` });
  numbers['cluster start (ms)'] = cluster.timings;
  // A short request timeout: a request to the dead node fails in seconds and is retried elsewhere.
  client = new Client({ bootstrap: cluster.bootstrap, clientId: 'leader-kill', requestTimeoutMs: 5_000 });
}, 300_000);

afterAll(async () => {
  await client?.close();
  await cluster?.stop();
  process.stderr.write(`[leader-kill] ${JSON.stringify(numbers)}\n`);
}, 120_000);

describe('three-node cluster, partition leader killed (SIGKILL)', () => {
  it('a group consumer continues from the new leader: every record once, in order', { timeout: 240_000 }, async () => {
    const topic = uniqueTopicName('leader-kill-consume');
    await client.admin.createTopics([{ name: topic, numPartitions: 1, replicationFactor: 3 }]);
    const producer = client.producer({ lingerMs: 20 });
    await within(
      60_000,
      'producing the test data',
      Promise.all(Array.from({ length: CONSUME_RECORDS }, (_, i) => producer.send({ topic, value: value(i) }))),
    );
    await producer.close();
    const leader = await leaderOf(topic);
    expect(leader).toBeGreaterThan(0);

    // Small fetches and a small buffer: most of the topic is fetched after the kill, not prefetched before it
    // (the 64 KiB bound holds ~600 of these records; ~4 800 are read after the kill).
    const consumer = new Consumer(client, {
      groupId: `${topic}-group`,
      autoOffsetReset: 'earliest',
      maxPartitionFetchBytes: 16 * 1024,
      maxBufferedBytes: 64 * 1024,
      requestTimeoutMs: 5_000,
    });
    const seen: number[] = [];
    const offsets: bigint[] = [];
    let killedAt = -1;
    let killTime = 0;
    // Batches already buffered come at once after the kill; the longest gap is the wait for the new leader.
    let lastBatch = 0;
    let stallMs = 0;
    try {
      await consumer.subscribe({ topics: [topic] });
      await within(
        150_000,
        `consuming ${CONSUME_RECORDS} records across the kill`,
        (async () => {
          for await (const batch of consumer) {
            const now = Date.now();
            if (killTime > 0) stallMs = Math.max(stallMs, now - Math.max(lastBatch, killTime));
            lastBatch = now;
            for (const r of batch.records) {
              seen.push(indexOf(r.value));
              offsets.push(r.offset);
            }
            if (killedAt < 0 && seen.length >= CONSUME_RECORDS / 5) {
              killedAt = seen.length;
              await cluster.node(leader).kill();
              killTime = Date.now();
            }
            if (seen.length >= CONSUME_RECORDS) {
              batch.ack(); // leaving the loop early would otherwise leave this batch unprocessed
              break;
            }
          }
        })(),
      );
    } finally {
      await within(60_000, 'consumer close', consumer.close()).catch(() => {});
    }
    const newLeader = await leaderOf(topic);
    const duplicated = seen.length - new Set(seen).size;
    const lost = CONSUME_RECORDS - new Set(seen).size;
    Object.assign(numbers, {
      'consume: records checked': seen.length,
      'consume: killed after': killedAt,
      'consume: longest wait for a batch after the kill (ms)': stallMs,
      'consume: lost': lost,
      'consume: duplicated': duplicated,
      'consume: leader before/after': `${leader}/${newLeader}`,
    });
    expect(killedAt).toBeGreaterThan(0);
    expect(killedAt).toBeLessThan(CONSUME_RECORDS);
    expect(newLeader).not.toBe(leader);
    expect(newLeader).toBeGreaterThan(0);
    expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect(seen).toEqual(Array.from({ length: CONSUME_RECORDS }, (_, i) => i));
    expect(offsets).toEqual(Array.from({ length: CONSUME_RECORDS }, (_, i) => BigInt(i)));

    // close() committed through whichever coordinator survived: the group resumes after the last record.
    const committed = await within(
      60_000,
      'committed offsets',
      client.offsets.committed(`${topic}-group`, null, { timeoutMs: 50_000 }),
    );
    expect(committed.map((c) => [c.partition, c.offset])).toEqual([[0, BigInt(CONSUME_RECORDS)]]);

    await restartAndHeal(leader, topic);
    expect(await cluster.node(leader).isRunning()).toBe(true);
  });

  it('an idempotent acks=all producer loses and duplicates nothing acknowledged', { timeout: 240_000 }, async () => {
    const topic = uniqueTopicName('leader-kill-produce');
    await client.admin.createTopics([{ name: topic, numPartitions: 1, replicationFactor: 3 }]);
    await until('topic fully replicated', 60_000, () => fullyReplicated(topic));
    const acked = new Set<number>();
    const leader = await produceAcrossKill('produce', topic, 0, PRODUCE_RECORDS, acked);
    await restartAndHeal(leader, topic);
    produceTopic = { topic, acked, firstKilled: leader };
  });

  it('a second kill, of another node, after the first came back: still nothing lost', { timeout: 180_000 }, async ({
    skip,
  }) => {
    if (!produceTopic) return skip(); // the test before it failed; its topic and node are unknown
    const { topic, acked, firstKilled } = produceTopic;
    // Leadership stays where the first kill put it (preferred-leader rebalancing runs every 5 minutes).
    const leader = await leaderOf(topic);
    expect(leader).not.toBe(firstKilled);
    await produceAcrossKill('second kill', topic, PRODUCE_RECORDS, SECOND_KILL_RECORDS, acked);
    await restartAndHeal(leader, topic);
  });
});

let produceTopic: { topic: string; acked: Set<number>; firstKilled: number } | undefined;

/**
 * Sends records from..from+count-1 to partition 0 of topic, kills the partition's leader once a fifth of them are
 * acknowledged, then reads the whole log back and checks it against every acknowledgement so far (acked, which
 * this adds to). Returns the killed node's id.
 */
async function produceAcrossKill(
  label: string,
  topic: string,
  from: number,
  count: number,
  acked: Set<number>,
): Promise<number> {
  const leader = await leaderOf(topic);
  const producer = client.producer({ lingerMs: 5, batchSize: 4_096, deliveryTimeoutMs: 90_000 });
  const offsets = new Map<number, bigint>();
  const rejected = new Map<number, Error>();
  let killedAt = -1;
  let outstandingAtKill = 0;
  let killTime = 0;
  let firstAckAfterKillMs = -1;
  try {
    await within(
      150_000,
      `${label}: producing ${count} records across the kill`,
      (async () => {
        const inFlight = new Set<Promise<void>>();
        for (let i = from; i < from + count; i++) {
          const p: Promise<void> = producer.send({ topic, partition: 0, value: value(i) }).then(
            (md) => {
              offsets.set(i, md.offset);
              if (killTime > 0 && firstAckAfterKillMs < 0) firstAckAfterKillMs = Date.now() - killTime;
            },
            (err: Error) => void rejected.set(i, err),
          );
          inFlight.add(p);
          void p.finally(() => inFlight.delete(p));
          if (inFlight.size >= PRODUCE_WINDOW) await Promise.race(inFlight);
          if (killedAt < 0 && offsets.size >= count / 5) {
            killedAt = i - from;
            outstandingAtKill = i + 1 - from - offsets.size - rejected.size;
            await cluster.node(leader).kill();
            killTime = Date.now();
          }
        }
        await Promise.all(inFlight);
      })(),
    );
  } finally {
    await within(60_000, `${label}: producer close`, producer.close()).catch(() => {});
  }
  for (const i of offsets.keys()) acked.add(i);

  const log = await within(60_000, `${label}: read-back`, readBack(client, topic));
  const inLog = log.records.map((r) => indexOf(Buffer.from(r.value!, 'base64')));
  const counts = new Map<number, number>();
  for (const i of inLog) counts.set(i, (counts.get(i) ?? 0) + 1);
  const lost = [...acked].filter((i) => !counts.has(i));
  const duplicated = [...counts.values()].filter((c) => c > 1).length;
  const ascending = inLog.every((v, k) => k === 0 || v > inLog[k - 1]);
  const newLeader = await leaderOf(topic);
  Object.assign(numbers, {
    [`${label}: records sent`]: count,
    [`${label}: killed after sending`]: killedAt,
    [`${label}: unacknowledged at the kill`]: outstandingAtKill,
    [`${label}: first ack after the kill (ms)`]: firstAckAfterKillMs,
    [`${label}: acknowledged`]: offsets.size,
    [`${label}: rejected`]: rejected.size,
    [`${label}: records in the log (whole topic)`]: inLog.length,
    [`${label}: lost (acknowledged, not in log)`]: lost.length,
    [`${label}: duplicated in log`]: duplicated,
    [`${label}: leader before/after`]: `${leader}/${newLeader}`,
  });

  expect(killedAt).toBeGreaterThan(0);
  // The kill caught sends in flight (that is the case under test), not a quiet producer.
  expect(outstandingAtKill).toBeGreaterThan(0);
  expect(newLeader).not.toBe(leader);
  expect(newLeader).toBeGreaterThan(0);
  // Nothing hung: every send settled, and a rejection is a typed error, never a bare one.
  expect(offsets.size + rejected.size).toBe(count);
  for (const err of rejected.values()) expect(err).toBeInstanceOf(TidemarkError);
  expect({ lost: lost.length, duplicated, ascending }).toEqual({ lost: 0, duplicated: 0, ascending: true });
  // Each acknowledged record sits at the offset its send() reported.
  for (const r of log.records) {
    const offset = offsets.get(indexOf(Buffer.from(r.value!, 'base64')));
    if (offset !== undefined) expect(offset).toBe(r.offset);
  }
  return leader;
}
