import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Consumer } from '../../../../src/consumer/consumer.js';
import { eventSink, isObserved, loggingSink } from '../../../../src/consumer/events.js';
import type { Coordinators } from '../../../../src/coordinator/coordinators.js';
import { FakeKafka } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';

let open: Consumer[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  open = [];
});

/** A consumer of one partition holding `records` records, read in batches of 10 (one fetch each). */
function consumerOf(records: number): { kafka: FakeKafka; consumer: Consumer } {
  const kafka = new FakeKafka([1]);
  kafka.createTopic('t', 1);
  kafka.append('t', 0, records, 10);
  const consumer = new Consumer(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    { autoOffsetReset: 'earliest', fetchMaxWaitMs: 20, maxPartitionFetchBytes: 1 },
  );
  consumer.assign([{ topic: 't', partition: 0 }]);
  open.push(consumer);
  return { kafka, consumer };
}

async function readAll(consumer: Consumer, count: number): Promise<void> {
  let seen = 0;
  for await (const batch of consumer.batches({ signal: AbortSignal.timeout(5_000) })) {
    seen += batch.records.length;
    if (seen >= count) return;
  }
}

/** How many `fetch` events reached the Consumer's emit (each one a payload the fetch loop built). */
function countFetchEvents(consumer: Consumer): () => number {
  const emit = vi.spyOn(consumer, 'emit');
  return () => (emit.mock.calls as unknown[][]).filter(([name]) => name === 'fetch').length;
}

describe('fetch events are built only when observed', () => {
  it('with no listener and no channel subscriber, no fetch event is built however many fetches go out', async () => {
    const { kafka, consumer } = consumerOf(50);
    const built = countFetchEvents(consumer);
    await readAll(consumer, 50);
    expect(kafka.fetches().length).toBeGreaterThanOrEqual(5);
    expect(built()).toBe(0);
  });

  it('a listener on the consumer gets one event per answered fetch', async () => {
    const { kafka, consumer } = consumerOf(50);
    const events: unknown[] = [];
    consumer.on('fetch', (e) => events.push(e));
    await readAll(consumer, 50);
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(events.length).toBeLessThanOrEqual(kafka.fetches().length);
    expect(events[0]).toMatchObject({ nodeId: 1, partitionsSent: 1 });
  });

  it('a diagnostics channel subscriber alone is enough to have them built', async () => {
    const { consumer } = consumerOf(30);
    const seen: unknown[] = [];
    const onMessage = (message: unknown) => seen.push(message);
    subscribe('tidemark:consumer:fetch', onMessage);
    try {
      await readAll(consumer, 30);
    } finally {
      unsubscribe('tidemark:consumer:fetch', onMessage);
    }
    expect(seen.length).toBeGreaterThanOrEqual(3);
  });
});

describe('isObserved', () => {
  it('asks the consumer and the channel; the log sink always observes the moves it logs', () => {
    const listening = new Set<string>(['commit']);
    const sink = eventSink(
      () => {},
      (name) => listening.has(name),
    );
    expect([isObserved(sink, 'commit'), isObserved(sink, 'fetch'), isObserved(sink, 'truncation')]).toEqual([
      true,
      false,
      false,
    ]);
    const logged = loggingSink(sink, () => {});
    expect([isObserved(logged, 'fetch'), isObserved(logged, 'truncation'), isObserved(logged, 'offset-reset')]).toEqual(
      [false, true, true],
    );
    // A sink without the question (a test's plain function) counts as observed: nothing is lost by default.
    expect(isObserved(() => {}, 'fetch')).toBe(true);
  });
});
