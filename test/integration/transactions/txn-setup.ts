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
 * Every value of `topic`'s partitions read with `isolation`, from the start to the end for that isolation
 * (the last stable offset with read_committed), as of the call.
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
    const ends = await settledEnds(client, tps, isolation);
    const values: string[] = [];
    const end = new Map(ends.map((e) => [e.partition, e.offset]));
    const left = new Set(ends.filter((e) => e.offset > 0n).map((e) => e.partition));
    // A partition may end with a transaction marker fetched after its last records: the position moves past it
    // without a batch being delivered, so the positions are watched too, not only the batches.
    const done = new AbortController();
    const watch = setInterval(() => {
      for (const partition of left) {
        consumer.position({ topic, partition }).then(
          (position) => {
            if (position >= (end.get(partition) ?? 0n)) left.delete(partition);
            if (left.size === 0) done.abort();
          },
          () => {},
        );
      }
    }, 200);
    try {
      if (left.size === 0) return values;
      const signal = AbortSignal.any([done.signal, AbortSignal.timeout(timeoutMs)]);
      for await (const batch of consumer.batches({ signal })) {
        for (const r of batch.records) values.push(r.value!.toString());
        if (batch.nextOffset >= (end.get(batch.partition) ?? 0n)) left.delete(batch.partition);
        batch.ack();
        if (left.size === 0) break;
      }
    } catch (err) {
      if (!done.signal.aborted) throw err;
    } finally {
      clearInterval(watch);
    }
    return values;
  } finally {
    await consumer.close();
  }
}

/**
 * The offsets to read up to. Under read_committed that is the last stable offset, and a transaction's commit
 * markers are written by its coordinator only after commitTransaction() has returned: read at once, the LSO can
 * still stand before the transaction just committed (seen on 3.9: one of two partitions read empty). So wait,
 * up to 10 s, until no transaction is pending (LSO = high watermark on every partition), then take the LSO.
 */
async function settledEnds(
  client: Client,
  tps: { topic: string; partition: number }[],
  isolation: 'read_committed' | 'read_uncommitted',
): Promise<{ partition: number; offset: bigint }[]> {
  if (isolation === 'read_uncommitted') return client.offsets.latest(tps);
  const until = Date.now() + 10_000;
  for (;;) {
    const [stable, high] = await Promise.all([
      client.offsets.latest(tps, { isolationLevel: 'read_committed' }),
      client.offsets.latest(tps),
    ]);
    const settled = stable.every((s) => high.find((h) => h.partition === s.partition)?.offset === s.offset);
    if (settled || Date.now() > until) return stable;
    await new Promise((r) => setTimeout(r, 50));
  }
}
