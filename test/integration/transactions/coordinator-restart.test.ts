/**
 * The transaction coordinator goes down in the middle of a transaction, in a three-node KRaft cluster started
 * by this file: once stopped (SIGTERM, controlled shutdown) and once killed (SIGKILL). The transaction must
 * commit or abort as a whole, never half; the producer must go on with a typed error or a retry, never hang.
 * Topics and the transaction log have replication factor 3 and min.insync.replicas 2, so one node down loses
 * nothing acknowledged and the coordinator moves to another node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TidemarkError } from '../../../codecs/errors.js';
import { Client } from '../../../src/client.js';
import { Deadline } from '../../../src/cluster/deadline.js';
import { TransactionAbortableError, TransactionFatalError } from '../../../src/producer/transaction-errors.js';
import { type KafkaCluster, startCluster } from '../../harness/cluster.js';
import { uniqueTopicName } from '../../harness/context.js';
import { readValues } from './txn-setup.js';

const PARTITIONS = 3;
const BEFORE = 300;
const AFTER = 300;

let cluster: KafkaCluster;
let client: Client;

/** Rejects with a message naming what hung once ms have passed. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms (a hang)`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

beforeAll(async () => {
  cluster = await startCluster({ brokers: 3, name: `txn-coord-${process.pid}` });
  client = new Client({ bootstrap: cluster.bootstrap, clientId: 'txn-coordinator-restart', requestTimeoutMs: 5_000 });
}, 300_000);

afterAll(async () => {
  await client?.close();
  await cluster?.stop();
}, 120_000);

describe('three-node cluster, transaction coordinator down mid-transaction', () => {
  it.each(['stop', 'kill'] as const)(
    'coordinator %s: the transaction commits or aborts whole, and the producer goes on',
    async (how) => {
      const topic = uniqueTopicName(`txn-coord-${how}`);
      await client.admin.createTopics([{ name: topic, numPartitions: PARTITIONS, replicationFactor: 3 }]);
      const transactionalId = uniqueTopicName(`coord-${how}`);
      const options = { transactionalId, lingerMs: 5, maxBlockMs: 60_000, deliveryTimeoutMs: 60_000 };
      let producer = client.producer(options);
      const values = (from: number, n: number) => Array.from({ length: n }, (_, i) => `t1-${from + i}`);
      let outcome: string;
      try {
        await within(90_000, 'initTransactions', producer.initTransactions());
        producer.beginTransaction();
        await Promise.all(
          values(0, BEFORE).map((v, i) => producer.send({ topic, partition: i % PARTITIONS, value: v })),
        );
        const found = await client.coordinators.find('transaction', [transactionalId], new Deadline('find', 10_000));
        const coordinator = found.get(transactionalId)!.nodeId;
        await (how === 'stop' ? cluster.node(coordinator).stop() : cluster.node(coordinator).kill());

        const rest = values(BEFORE, AFTER).map((v, i) =>
          producer.send({ topic, partition: i % PARTITIONS, value: v }).then(
            () => 'ok',
            (e: unknown) => e,
          ),
        );
        outcome = await within(150_000, 'commitTransaction', producer.commitTransaction()).then(
          () => 'committed',
          async (err: unknown) => {
            expect(err).toBeInstanceOf(TidemarkError);
            if (err instanceof TransactionFatalError) return `fatal: ${err.name}`;
            await within(150_000, 'abortTransaction', producer.abortTransaction());
            return `aborted after ${err instanceof TransactionAbortableError ? 'abortable' : (err as Error).name}`;
          },
        );
        await Promise.all(rest);
        // Going on: the same producer when it can, else a new one with the same id (fencing the old).
        if (outcome.startsWith('fatal')) {
          await producer.close();
          producer = client.producer(options);
          await within(90_000, 'initTransactions again', producer.initTransactions());
        }
        await within(
          90_000,
          'the next transaction',
          producer.transaction(async (tx) => {
            await Promise.all(
              [...Array(PARTITIONS).keys()].map((p) => tx.send({ topic, partition: p, value: `t2-${p}` })),
            );
          }),
        );
      } finally {
        await producer.close();
      }
      const seen = await readValues(client, topic, [...Array(PARTITIONS).keys()]);
      const first = seen.filter((v) => v.startsWith('t1-'));
      console.log(JSON.stringify({ how, outcome, firstTransactionVisible: first.length }));
      // Whole or nothing.
      expect([0, BEFORE + AFTER]).toContain(first.length);
      if (outcome === 'committed') expect(first.length).toBe(BEFORE + AFTER);
      else expect(first.length).toBe(0);
      expect(seen.filter((v) => v.startsWith('t2-')).sort()).toEqual(['t2-0', 't2-1', 't2-2']);
      await restartAll();
    },
    600_000,
  );
});

/** Brings every stopped or killed node back, so the next case starts from a whole cluster. */
async function restartAll(): Promise<void> {
  for (const node of cluster.nodes) if (!(await node.isRunning())) await node.restart({ timeoutMs: 120_000 });
  await cluster.waitUntilWhole(60_000);
}
