/**
 * A send refused without I/O — the producer closed, or failed for good, or the record invalid — must let the
 * event loop turn before it rejects. The corruption soak (issue 22) hung the whole test run this way: its
 * producer had failed for good, and a loop that sent again on every failure spun in the microtask queue, so no
 * timer ran again, not even the test's own timeout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { isKafkaError } from '../../../protocol/kafka-error.js';
import { InvalidRecordError, ProducerClosedError } from '../../../src/producer/errors.js';
import { Producer } from '../../../src/producer/producer.js';
import { initProducerIdRefused } from '../../fake-kafka/apis/init-producer-id.js';
import { fakeKafkaWith } from '../../fake-kafka/cluster.js';
import { producerView } from '../../fake-kafka/views.js';

/** Enough back-to-back refusals that a loop that never yields would outlast a 0 ms timer many times over. */
const ATTEMPTS = 5_000;

const producers: Producer[] = [];
afterEach(async () => {
  await Promise.all(producers.splice(0).map((p) => p.close({ timeoutMs: 100 })));
});

/** Sends again at once on every failure, as a careless application would; did a 0 ms timer get to run? */
async function resendAtOnce(send: () => Promise<unknown>): Promise<{ timerRan: boolean; errors: unknown[] }> {
  let timerRan = false;
  const timer = setTimeout(() => {
    timerRan = true;
  }, 0);
  const errors: unknown[] = [];
  for (let i = 0; i < ATTEMPTS && !timerRan; i++) errors.push(await send().catch((e) => e));
  clearTimeout(timer);
  return { timerRan, errors };
}

describe('a send refused without I/O', () => {
  it('after close() rejects on a later turn of the event loop', async () => {
    const p = new Producer(producerView(fakeKafkaWith({ t: 1 })), { lingerMs: 0 });
    producers.push(p);
    await p.close();
    const { timerRan, errors } = await resendAtOnce(() => p.send({ topic: 't', value: 'v' }));
    expect(timerRan).toBe(true);
    for (const err of errors) expect(err).toBeInstanceOf(ProducerClosedError);
  });

  it('by a producer that failed for good rejects on a later turn of the event loop', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.control('InitProducerId', () => initProducerIdRefused(ErrorCode.CLUSTER_AUTHORIZATION_FAILED));
    const p = new Producer(producerView(broker), { lingerMs: 0, retryBackoffMs: 1, retryBackoffMaxMs: 5 });
    producers.push(p);
    const first = await p.send({ topic: 't', value: 'v' }).catch((e) => e);
    expect(isKafkaError(first) && first.code === ErrorCode.CLUSTER_AUTHORIZATION_FAILED).toBe(true);
    const { timerRan, errors } = await resendAtOnce(() => p.send({ topic: 't', value: 'v' }));
    expect(timerRan).toBe(true);
    for (const err of errors) expect(err).toBe(first);
  });

  it('for an invalid record rejects on a later turn of the event loop', async () => {
    const p = new Producer(producerView(fakeKafkaWith({ t: 1 })), { lingerMs: 0 });
    producers.push(p);
    const { timerRan, errors } = await resendAtOnce(() => p.send({ topic: '', value: 'v' }));
    expect(timerRan).toBe(true);
    for (const err of errors) expect(err).toBeInstanceOf(InvalidRecordError);
  });
});
