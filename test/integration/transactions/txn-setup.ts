/** Shared set-up of the transaction tests: a tidemark read_committed reader and transactional producers. */
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { ProducerOptions } from '../../../src/producer/options.js';
import type { Producer } from '../../../src/producer/producer.js';
import { uniqueTopicName } from '../../harness/context.js';

export { newTopic } from '../consumer/setup.js';
export { newClient, type Target, targets, uniqueGroup } from '../offsets/setup.js';

/** A transactional producer on `client`, with short timeouts so a failing test fails fast. */
export function transactionalProducer(client: Client, options: ProducerOptions = {}): Producer {
  return client.producer({
    transactionalId: uniqueTopicName('txn'),
    lingerMs: 0,
    maxBlockMs: 30_000,
    ...options,
  });
}

/**
 * Every value of `topic`'s partitions read with `isolation`, from the start to the end for that isolation.
 * Each partition read must end with a visible record (the consumer delivers no empty batch to stop on).
 */
export async function readValues(
  client: Client,
  topic: string,
  partitions: readonly number[] = [0],
  isolation: 'read_committed' | 'read_uncommitted' = 'read_committed',
  timeoutMs = 120_000,
): Promise<string[]> {
  const consumer = new Consumer(client, { autoOffsetReset: 'earliest', isolationLevel: isolation });
  try {
    const tps = partitions.map((partition) => ({ topic, partition }));
    consumer.assign(tps);
    const ends = await client.offsets.latest(tps, { isolationLevel: isolation });
    const values: string[] = [];
    // A partition whose stable end is 0 has nothing to read (the consumer would wait for records forever).
    const left = new Set(ends.filter((e) => e.offset > 0n).map((e) => e.partition));
    if (left.size === 0) return values;
    for await (const batch of consumer.batches({ signal: AbortSignal.timeout(timeoutMs) })) {
      for (const r of batch.records) values.push(r.value!.toString());
      const end = isolation === 'read_committed' ? batch.lastStableOffset : batch.highWatermark;
      if (batch.nextOffset >= end) left.delete(batch.partition);
      batch.ack();
      if (left.size === 0) break;
    }
    return values;
  } finally {
    await consumer.close();
  }
}
