/**
 * Mode (e), Kafka transactions: the processed results are records of an output topic, written by a
 * transactional producer whose transactions also carry the consumer's offsets (a TransactionalOffsetStore),
 * so results and offsets commit together in Kafka itself. The child side opens the producer and the store;
 * the parent side creates the output topic and counts what a read_committed consumer sees in it.
 */
import { Client } from '../../src/client.js';
import { BrokerOffsetStore } from '../../src/consumer/broker-offset-store.js';
import { Consumer } from '../../src/consumer/index.js';
import type { Producer } from '../../src/producer/producer.js';
import { TransactionalOffsetStore } from '../../src/producer/transactional-offset-store.js';
import type { ChildConfig } from './modes.js';
import type { HandledRecord } from './processing.js';
import type { ExperimentTopic } from './setup.js';

/** The child's producer and offset store, the producer initialised (older runs fenced). */
export async function openTransactionalSink(
  client: Client,
  config: ChildConfig,
): Promise<{ producer: Producer; store: TransactionalOffsetStore; send: (r: HandledRecord) => void }> {
  const producer = client.producer({ transactionalId: config.transactionalId, lingerMs: 5 });
  await producer.initTransactions();
  const loader = new BrokerOffsetStore({
    cluster: client.cluster,
    coordinators: client.coordinators,
    requestTimeoutMs: 30_000,
  });
  const store = new TransactionalOffsetStore(producer, loader);
  const send = (r: HandledRecord) => {
    // The output record names its input; commitTransaction() reports a failed send, so none is awaited here.
    producer
      .send({ topic: config.outputTopic, partition: r.partition, value: `${r.partition}:${r.offset}` })
      .catch(() => {});
  };
  return { producer, store, send };
}

/** A fresh output topic with the input's partition count. */
export async function createOutputTopic(bootstrap: string, name: string, partitions: number): Promise<void> {
  const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-experiment-setup' });
  try {
    await client.admin.createTopics([{ name, numPartitions: partitions, replicationFactor: 1 }]);
  } finally {
    await client.close();
  }
}

/**
 * Deliveries per input record, counted from the output topic as a read_committed consumer reads it, until the
 * consumer's position reaches each partition's last stable offset. The position, not the last batch's
 * `nextOffset`: a slice that holds only a transaction marker (the commit marker after a batch cut at its record
 * cap) hands out no batch, and the position moves past it all the same.
 */
export async function readTransactionalOutput(
  config: ChildConfig,
  topic: ExperimentTopic,
  add: (partition: number, offset: number) => void,
): Promise<void> {
  const client = new Client({ bootstrap: [config.bootstrap], clientId: 'tidemark-experiment-count' });
  const consumer = new Consumer(client, { autoOffsetReset: 'earliest', isolationLevel: 'read_committed' });
  const reachedEnd = new AbortController();
  let watching: NodeJS.Timeout | undefined;
  try {
    const tps = Array.from({ length: topic.partitions }, (_, partition) => ({ topic: config.outputTopic, partition }));
    consumer.assign(tps);
    const ends = await client.offsets.latest(tps, { isolationLevel: 'read_committed' });
    const left = ends.filter((e) => e.offset > 0n);
    if (left.length === 0) return;
    const atEnd = async () => {
      for (const end of left) if ((await consumer.position(end)) < end.offset) return false;
      return true;
    };
    watching = setInterval(() => {
      atEnd().then(
        (done) => done && reachedEnd.abort(),
        () => {},
      );
    }, 50);
    const signal = AbortSignal.any([reachedEnd.signal, AbortSignal.timeout(300_000)]);
    try {
      for await (const batch of consumer.batches({ signal })) {
        for (const r of batch.records) {
          const [partition, offset] = (r.value?.toString() ?? '').split(':').map(Number);
          add(partition, offset);
        }
        batch.ack();
      }
    } catch (err) {
      if (!reachedEnd.signal.aborted) throw err;
    }
  } finally {
    clearInterval(watching);
    await consumer.close();
    await client.close();
  }
}
