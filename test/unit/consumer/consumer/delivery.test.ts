import { afterEach, describe, expect, it } from 'vitest';
import { Consumer } from '../../../../src/consumer/consumer.js';
import type { ConsumerBatch } from '../../../../src/consumer/consumer-record.js';
import { ConsumerClosedError, IteratorInUseError } from '../../../../src/consumer/errors.js';
import type { ConsumerOptions } from '../../../../src/consumer/options.js';
import type { Coordinators } from '../../../../src/coordinator/coordinators.js';
import { MemoryOffsetStore } from '../../../../src/offsets/memory-offset-store.js';
import { FakeKafka } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';

let open: Consumer[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  open = [];
});

const tp = { topic: 't', partition: 0 };

function setUp(options: ConsumerOptions = {}, records = 30) {
  const kafka = new FakeKafka([1]);
  kafka.createTopic('t', 1);
  kafka.append('t', 0, records, 10);
  const store = new MemoryOffsetStore();
  const consumer = new Consumer(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    {
      groupId: 'g',
      offsetStore: store,
      autoOffsetReset: 'earliest',
      autoCommit: false,
      fetchMaxWaitMs: 10,
      maxPartitionFetchBytes: 1,
      ...options,
    },
  );
  open.push(consumer);
  consumer.assign([tp]);
  return { kafka, consumer, store };
}

async function stored(store: MemoryOffsetStore): Promise<bigint | undefined> {
  return (await store.load('g', [tp])).get('t')?.get(0)?.offset;
}

describe('delivery and the processed mark', () => {
  it('a batch counts as processed when the next one is asked for, not when it is handed out', async () => {
    const { consumer, store } = setUp();
    const it = consumer.batches();
    const first = (await it.next()).value as ConsumerBatch;
    expect(first.records.map((r) => r.offset)).toEqual([...Array(10).keys()].map(BigInt));
    await consumer.commit();
    // Handed out, still being handled: the start position (0) is what may be stored.
    expect(await stored(store)).toBe(0n);
    await it.next();
    await consumer.commit();
    expect(await stored(store)).toBe(10n);
    await it.return!();
  });

  it('leaving a batch unfinished delivers it again from its first unprocessed record', async () => {
    const { consumer } = setUp();
    for await (const batch of consumer) {
      batch.ack(batch.records[3]);
      break;
    }
    // Position follows: the next loop starts at the record after the last one acked.
    expect(await consumer.position(tp)).toBe(4n);
    for await (const batch of consumer) {
      expect(batch.records[0].offset).toBe(4n);
      break;
    }
  });

  it('the record iterator marks each record processed when the loop asks for the next', async () => {
    const { consumer, store } = setUp();
    let n = 0;
    for await (const record of consumer.records()) {
      if (++n === 15) {
        await consumer.commit();
        // 0..13 finished, 14 is in hand.
        expect(await stored(store)).toBe(14n);
        expect(record.offset).toBe(14n);
        break;
      }
    }
    expect(await consumer.position(tp)).toBe(14n);
  });

  it('one iterator at a time', async () => {
    const { consumer } = setUp();
    const a = consumer.batches();
    await a.next();
    await expect(consumer.records().next()).rejects.toBeInstanceOf(IteratorInUseError);
    await a.return!();
    expect((await consumer.records().next()).done).toBe(false);
  });

  it('pause holds a partition back (dropping what was fetched ahead); resume picks up where it was', async () => {
    const { consumer, kafka } = setUp({}, 10);
    const it = consumer.batches();
    expect((await it.next()).value!.records.length).toBe(10);
    consumer.pause([tp]);
    expect(consumer.paused()).toEqual([tp]);
    kafka.append('t', 0, 10);
    const waiting = it.next();
    const raced = await Promise.race([
      waiting.then(() => 'delivered'),
      new Promise((r) => setTimeout(() => r('held'), 100)),
    ]);
    expect(raced).toBe('held');
    consumer.resume([tp]);
    expect((await waiting).value!.records[0].offset).toBe(10n);
    await it.return!();
  });

  it('an AbortSignal ends the wait for records', async () => {
    const { consumer } = setUp({}, 0);
    // While the position is still being looked up, an aborted signal ends that wait too.
    await expect(consumer.position(tp, { signal: AbortSignal.abort(new Error('now')) })).rejects.toThrow('now');
    expect(await consumer.position(tp)).toBe(0n);
    const controller = new AbortController();
    const waiting = consumer.batches({ signal: controller.signal }).next();
    controller.abort(new Error('enough'));
    await expect(waiting).rejects.toThrow('enough');
    // Nothing to wait for: a known position is answered whatever the signal says.
    await expect(consumer.position(tp, { signal: AbortSignal.abort() })).resolves.toBe(0n);
  });

  it('close ends iteration, and calls after close fail', async () => {
    const { consumer } = setUp({}, 0);
    const waiting = consumer.batches().next();
    await consumer.close();
    expect((await waiting).done).toBe(true);
    expect(() => consumer.assign([tp])).toThrow(ConsumerClosedError);
  });

  it('close commits what was processed (auto-commit), never the batch in hand', async () => {
    const { consumer, store } = setUp({ autoCommit: true });
    const it = consumer.batches();
    await it.next();
    await it.next();
    await consumer.close();
    expect(await stored(store)).toBe(10n);
  });

  it('seeking inside a loop: the batch in hand no longer marks anything processed', async () => {
    const { consumer, store } = setUp();
    for await (const batch of consumer) {
      if (batch.records[0].offset === 0n) consumer.seek(tp, 25n);
      else {
        expect(batch.records[0].offset).toBe(25n);
        break;
      }
    }
    await consumer.commit();
    expect(await stored(store)).toBe(25n);
  });
});
