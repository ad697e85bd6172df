/**
 * Consume-transform-produce in a process of its own, for the SIGKILL loop (ctp-kill-loop.test.ts): reads the
 * input topic (manual assignment, read_committed), writes one output record per input record to the same
 * partition of the output topic (value `<partition>:<offset>`), and commits through a TransactionalOffsetStore
 * after every batch, so outputs and input offsets commit in one Kafka transaction. Every run uses the same
 * transactional id: initTransactions() fences the killed run and aborts its open transaction.
 * Lines on stdout start with "@@ " (as consumer-child.ts): `ready`, `closed`, `error`. stdin `close`: finish
 * the batch in hand, commit, exit 0.
 */
import { createInterface } from 'node:readline';
import { Client } from '../../../src/client.js';
import { BrokerOffsetStore } from '../../../src/consumer/broker-offset-store.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { TransactionalOffsetStore } from '../../../src/producer/transactional-offset-store.js';

export interface TransformChildConfig {
  run: number;
  bootstrap: string;
  input: string;
  output: string;
  partitions: number;
  groupId: string;
  transactionalId: string;
  /** Pause per record after each batch, so the input lasts across every kill. */
  msPerRecord: number;
}

const config = JSON.parse(process.argv[2]) as TransformChildConfig;
const print = (line: object) => process.stdout.write(`@@ ${JSON.stringify(line)}\n`);

const client = new Client({
  bootstrap: config.bootstrap,
  clientId: `ctp-child-${config.run}`,
  requestTimeoutMs: 15_000,
});
const producer = client.producer({ transactionalId: config.transactionalId, lingerMs: 2 });
const stop = new AbortController();
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'close') stop.abort();
});

async function main(): Promise<void> {
  await producer.initTransactions();
  const store = new TransactionalOffsetStore(
    producer,
    new BrokerOffsetStore({ cluster: client.cluster, coordinators: client.coordinators, requestTimeoutMs: 15_000 }),
  );
  const consumer = new Consumer(client, {
    groupId: config.groupId,
    autoOffsetReset: 'earliest',
    isolationLevel: 'read_committed',
    offsetStore: store,
    // Commits come from the loop, one transaction per batch; small fetches keep transactions short.
    autoCommitIntervalMs: 60_000,
    maxPartitionFetchBytes: 16 * 1024,
  });
  consumer.assign([...Array(config.partitions).keys()].map((partition) => ({ topic: config.input, partition })));
  print({ event: 'ready' });
  try {
    for await (const batch of consumer.batches({ signal: stop.signal })) {
      for (const r of batch.records) {
        // Not awaited one by one: commitTransaction() delivers them all or fails.
        producer
          .send({ topic: config.output, partition: r.partition, value: `${r.partition}:${r.offset}` })
          .catch(() => {});
      }
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(batch.records.length * config.msPerRecord)));
      batch.ack();
      await consumer.commit();
      if (stop.signal.aborted) break;
    }
  } catch (err) {
    if (!stop.signal.aborted) throw err;
  }
  await consumer.close();
  await producer.close();
  await client.close();
  print({ event: 'closed' });
  process.exit(0);
}

main().catch((err: Error) => {
  print({ event: 'error', name: err.name, message: err.message });
  process.exit(1);
});
