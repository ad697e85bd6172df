/** producer.send(record, callback): the Java-style answer through a callback, against the fake broker (logic only). */
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { KafkaError } from '../../../protocol/kafka-error.js';
import { TRACING_CHANNELS } from '../../../src/observability/channels.js';
import type { RecordMetadata } from '../../../src/producer/batch.js';
import { InvalidRecordError, ProducerClosedError } from '../../../src/producer/errors.js';
import { Producer } from '../../../src/producer/producer.js';
import { fakeKafkaWith } from '../../fake-kafka/cluster.js';
import { producerView } from '../../fake-kafka/views.js';

const producers: Producer[] = [];
afterEach(async () => {
  await Promise.all(producers.splice(0).map((p) => p.close({ timeoutMs: 100 })));
});

function producerOn(partitions: number, options: ConstructorParameters<typeof Producer>[1] = {}) {
  const broker = fakeKafkaWith({ t: partitions });
  const p = new Producer(producerView(broker), { lingerMs: 2, retryBackoffMs: 1, retryBackoffMaxMs: 5, ...options });
  producers.push(p);
  return { broker, p };
}

type Answer = { err: Error | undefined; metadata: RecordMetadata | undefined };

/** A callback that records its answers, and a promise for the moment `count` of them have come. */
function answers(count: number) {
  const seen: Answer[] = [];
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  const callback = (err: Error | undefined, metadata: RecordMetadata | undefined) => {
    seen.push({ err, metadata });
    if (seen.length === count) done();
  };
  return { seen, all, callback };
}

describe('Producer.send with a callback', () => {
  it('answers each record once, after send() returned, in send() order beside promise sends', async () => {
    const { broker, p } = producerOn(1);
    const { seen, all, callback } = answers(3);
    const returned = p.send({ topic: 't', value: 'first', timestamp: 1000 }, callback);
    expect(returned).toBeUndefined();
    const second = p.send({ topic: 't', value: 'second' });
    p.send({ topic: 't', value: 'third' }, { acks: 'all' }, callback);
    p.send({ topic: 't', value: 'fourth' }, undefined, callback);
    expect(seen).toHaveLength(0);
    await all;
    expect(seen.map((a) => a.err)).toEqual([undefined, undefined, undefined]);
    expect(seen[0].metadata).toEqual({ topic: 't', partition: 0, offset: 0n, timestamp: 1000 });
    expect(seen.map((a) => a.metadata?.offset)).toEqual([0n, 2n, 3n]);
    expect((await second).offset).toBe(1n);
    expect(broker.values('t')).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('answers a refused record with its typed error on a later turn, and one sent after close() too', async () => {
    const { broker, p } = producerOn(1);
    const { seen, all, callback } = answers(2);
    p.send({ topic: 't', value: 'bad', timestamp: -5 }, callback);
    p.send({ topic: 't', value: 'ok' }, callback);
    expect(seen).toHaveLength(0);
    await all;
    expect(seen[0].err).toBeInstanceOf(InvalidRecordError);
    expect(seen[0].metadata).toBeUndefined();
    expect(seen[1].metadata?.offset).toBe(0n);
    await p.close();
    const late = answers(1);
    p.send({ topic: 't', value: 'late' }, late.callback);
    await late.all;
    expect(late.seen[0].err).toBeInstanceOf(ProducerClosedError);
    expect(broker.values('t')).toEqual(['ok']);
  });

  it('answers a record whose partitioner throws on a later turn, never inside send()', async () => {
    const boom = new Error('partitioner failed');
    const { p } = producerOn(2, {
      partitioner: () => {
        throw boom;
      },
    });
    const { seen, all, callback } = answers(1);
    p.send({ topic: 't', value: 'v' }, callback);
    expect(seen).toHaveLength(0);
    await all;
    expect(seen[0].err).toBe(boom);
  });

  it('has called back every record, failed ones included, when flush() resolves', async () => {
    const { broker, p } = producerOn(2);
    broker.injectProduce('t', 1, { kind: 'error', code: ErrorCode.INVALID_RECORD }, 1);
    const { seen, callback } = answers(4);
    for (let i = 0; i < 4; i++) p.send({ topic: 't', partition: i % 2, value: `v${i}` }, callback);
    await p.flush();
    expect(seen).toHaveLength(4);
    const failed = seen.filter((a) => a.err !== undefined);
    expect(failed).toHaveLength(2);
    expect(failed[0].err).toBeInstanceOf(KafkaError);
    expect(broker.values('t')).toEqual(['v0', 'v2']);
  });

  it('goes on answering the batch’s other records when a callback throws, and throws that error uncaught', async () => {
    const { p } = producerOn(1);
    // The runner's own handlers would fail the run on the uncaught error this test expects: set aside meanwhile.
    const runners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    const uncaught: Error[] = [];
    const onUncaught = (err: Error) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const { seen, all, callback } = answers(3);
      const thrower = (err: Error | undefined, metadata: RecordMetadata | undefined) => {
        callback(err, metadata);
        throw new Error(`callback failed at ${metadata?.offset}`);
      };
      for (let i = 0; i < 3; i++) p.send({ topic: 't', value: `v${i}` }, i === 1 ? thrower : callback);
      await all;
      expect(seen.map((a) => a.metadata?.offset)).toEqual([0n, 1n, 2n]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught.map((e) => e.message)).toEqual(['callback failed at 1']);
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const listener of runners) process.on('uncaughtException', listener);
    }
  });

  it('with a tracing subscriber, traces the record and answers through the callback', async () => {
    const none = () => {};
    let started = 0;
    const handlers = { start: () => started++, end: none, asyncStart: none, asyncEnd: none, error: none } as never;
    TRACING_CHANNELS.producerSend.subscribe(handlers);
    try {
      const { p } = producerOn(1);
      const { seen, all, callback } = answers(1);
      p.send({ topic: 't', value: 'v' }, callback);
      await all;
      expect(started).toBe(1);
      expect(seen[0].metadata?.offset).toBe(0n);
    } finally {
      TRACING_CHANNELS.producerSend.unsubscribe(handlers);
    }
  });

  it('refuses a callback that is not a function at once', () => {
    const { p } = producerOn(1);
    expect(() => p.send({ topic: 't', value: 'v' }, undefined, 'no' as never)).toThrow(InvalidRecordError);
  });
});
