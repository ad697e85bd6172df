import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { isKafkaError } from '../../../protocol/kafka-error.js';
import { DeliveryTimeoutError } from '../../../src/producer/errors.js';
import { incrementSequence } from '../../../src/producer/idempotence.js';
import type { ProducerOptions } from '../../../src/producer/options.js';
import { Producer } from '../../../src/producer/producer.js';
import { initProducerIdRefused } from '../../fake-kafka/apis/init-producer-id.js';
import { type FakeKafka, fakeKafkaWith } from '../../fake-kafka/cluster.js';
import { producerView } from '../../fake-kafka/views.js';

/**
 * The idempotent producer's sequence logic against a broker that enforces Kafka's sequence rules: what must
 * hold is that every acknowledged record is in the log exactly once, in send() order.
 */
const producers: Producer[] = [];
function idempotentProducer(broker: FakeKafka, options: ProducerOptions = {}): Producer {
  const p = new Producer(producerView(broker), {
    lingerMs: 0,
    retryBackoffMs: 1,
    retryBackoffMaxMs: 5,
    batchSize: 150,
    ...options,
  });
  producers.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(producers.splice(0).map((p) => p.close({ timeoutMs: 100 })));
});

const tick = () => new Promise((r) => setTimeout(r, 20));

/** Sends `n` records one small batch each (batchSize 150 holds one 100-byte value), letting each leave first. */
async function sendSpread(p: Producer, n: number, prefix = 'v') {
  const sends: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    sends.push(p.send({ topic: 't', value: `${prefix}${i}`.padEnd(100, '.') }).catch((e: unknown) => e));
    await tick();
  }
  return Promise.all(sends);
}

const values = (broker: FakeKafka) => broker.values('t').map((v) => v.replace(/\.+$/, ''));

describe('idempotent producer', () => {
  it('is the default with acks all: InitProducerId, then sequences counting records per partition', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = idempotentProducer(broker, { batchSize: 16384, lingerMs: 5 });
    await Promise.all([p.send({ topic: 't', value: 'a' }), p.send({ topic: 't', value: 'b' })]);
    await p.send({ topic: 't', value: 'c' });
    expect(p.producerIdAndEpoch).toEqual({ producerId: 1000n, epoch: 0 });
    expect(broker.produceCalls.map((c) => c.partitions[0])).toMatchObject([
      { producerId: 1000n, epoch: 0, baseSequence: 0, count: 2 },
      { producerId: 1000n, epoch: 0, baseSequence: 2, count: 1 },
    ]);
  });

  it('does not duplicate a batch whose answer was lost: the resend is recognised by its sequence', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.injectProduce('t', 0, { kind: 'lose-answer', append: true, as: 'timeout' });
    broker.injectProduce('t', 0, { kind: 'lose-answer', append: true, as: 'disconnect' });
    const p = idempotentProducer(broker);
    const sent = (await sendSpread(p, 6)) as { offset: bigint }[];
    expect(values(broker)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
    expect(sent.map((m) => m.offset)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    // Both lost batches were sent again with the same sequence.
    const seqs = broker.produceCalls.map((c) => c.partitions[0].baseSequence);
    expect(seqs.filter((s) => s === 0).length + seqs.filter((s) => s === 1).length).toBeGreaterThanOrEqual(3);
  });

  it('keeps send() order when an early batch fails retriably while later ones are in flight', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.latencyMs.Produce = 5;
    const p = idempotentProducer(broker);
    await sendSpread(p, 2, 'a');
    // The broker knows the producer now: a batch behind the failed one is refused for its sequence.
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.NOT_LEADER_OR_FOLLOWER }, 1);
    // The failing batch is answered only once the next one has reached the broker, so that one is in flight
    // behind the failure on any runtime and under any load (not only when the sends outpace the 5 ms latency).
    // Held answers go on in arrival order: the failure first, then the refusal of the batch behind it.
    let secondArrived!: () => void;
    const second = new Promise<void>((resolve) => {
      secondArrived = resolve;
    });
    let arrived = 0;
    broker.control(
      'Produce',
      () => {
        if (++arrived === 2) secondArrived();
        return { after: second };
      },
      { times: 2 },
    );
    await sendSpread(p, 12);
    expect(values(broker)).toEqual(['a0', 'a1', ...Array.from({ length: 12 }, (_, i) => `v${i}`)]);
    expect(broker.maxInFlight('Produce')).toBeGreaterThan(1);
    const codes = broker.produceCalls.map((c) => c.partitions[0].errorCode);
    expect(codes).toContain(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
    // Resent in order under the same epoch: no reset was needed.
    expect(p.producerIdAndEpoch?.epoch).toBe(0);
  });

  it('keeps order when the very first batch is turned away: the broker would take any first sequence', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.latencyMs.Produce = 5;
    // A new topic whose leader is not ready for the first request, but is for the next.
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.NOT_LEADER_OR_FOLLOWER }, 1);
    const p = idempotentProducer(broker);
    await sendSpread(p, 6);
    expect(values(broker)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
    expect(p.producerIdAndEpoch?.epoch).toBe(0);
  });

  it('bumps the epoch after a batch fails for good, so the batches behind it are not stuck on the gap', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.latencyMs.Produce = 5;
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.INVALID_RECORD }, 1);
    const p = idempotentProducer(broker);
    const results = await sendSpread(p, 8);
    expect(isKafkaError(results[0], 'INVALID_RECORD')).toBe(true);
    expect(values(broker)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7']);
    expect(p.producerIdAndEpoch).toEqual({ producerId: 1000n, epoch: 1 });
    const epochOne = broker.produceCalls.map((c) => c.partitions[0]).filter((c) => c.epoch === 1);
    expect(epochOne[0].baseSequence).toBe(0);
  });

  it('recovers from UNKNOWN_PRODUCER_ID (the broker lost its state) by a new epoch, delivering the batch', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = idempotentProducer(broker);
    await sendSpread(p, 2);
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.UNKNOWN_PRODUCER_ID });
    await sendSpread(p, 2, 'w');
    expect(values(broker)).toEqual(['v0', 'v1', 'w0', 'w1']);
    expect(p.producerIdAndEpoch?.epoch).toBe(1);
  });

  it('resends a batch of unknown fate under its old sequence before a reset, so it is never written twice', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.latencyMs.Produce = 5;
    // A is written but its answer lost; B likewise; A's resend is then refused for good.
    broker.injectProduce('t', 0, { kind: 'lose-answer', append: true });
    broker.injectProduce('t', 0, { kind: 'lose-answer', append: true });
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.TOPIC_AUTHORIZATION_FAILED });
    const p = idempotentProducer(broker);
    const [a, b] = await sendSpread(p, 2);
    await sendSpread(p, 1, 'c');
    expect(isKafkaError(a, 'TOPIC_AUTHORIZATION_FAILED')).toBe(true);
    expect((b as { offset: bigint }).offset).toBe(1n);
    // A was written before its answer was lost (the broker has it, the caller was told it failed: Java does the
    // same); B is there once, not renumbered into a duplicate.
    expect(values(broker)).toEqual(['v0', 'v1', 'c0']);
  });

  it('fails every send with the typed error when the cluster refuses a producer id', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.control('InitProducerId', () => initProducerIdRefused(ErrorCode.CLUSTER_AUTHORIZATION_FAILED));
    const p = idempotentProducer(broker);
    const err = await p.send({ topic: 't', value: 'x' }).catch((e: unknown) => e);
    expect(isKafkaError(err, 'CLUSTER_AUTHORIZATION_FAILED')).toBe(true);
    await expect(p.send({ topic: 't', value: 'y' })).rejects.toSatisfy((e) => isKafkaError(e));
  });

  // One flipped bit turns NONE (0) into BROKER_NOT_AVAILABLE (8), or epoch 0 into -32768: the corruption soak saw
  // the first end a producer for good. Only a refusal that asking again cannot change ends it.
  it.each([
    { garbled: 'an error code that is no refusal', answer: initProducerIdRefused(ErrorCode.BROKER_NOT_AVAILABLE) },
    {
      garbled: 'a negative epoch',
      answer: { response: { throttleTimeMs: 0, errorCode: 0, producerId: 7n, producerEpoch: -32_768 } },
    },
  ])('retries an InitProducerId answer with $garbled: the producer lives', async ({ answer }) => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.control('InitProducerId', () => answer, { times: 1 });
    const p = idempotentProducer(broker);
    expect((await p.send({ topic: 't', value: 'x' })).offset).toBe(0n);
    expect(p.producerIdAndEpoch).toEqual({ producerId: 1000n, epoch: 0 });
    expect(broker.seen.filter((r) => r.api === 'InitProducerId')).toHaveLength(2);
  });

  it('names the InitProducerId error in the delivery timeout of records that waited for an id', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.control('InitProducerId', () => initProducerIdRefused(ErrorCode.UNKNOWN_SERVER_ERROR));
    const p = idempotentProducer(broker, { deliveryTimeoutMs: 300, requestTimeoutMs: 200 });
    const err = await p.send({ topic: 't', value: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryTimeoutError);
    expect((err as Error).message).toMatch(
      /last error: .*UNKNOWN_SERVER_ERROR.*InitProducerId|InitProducerId.*UNKNOWN_SERVER_ERROR/,
    );
    expect(isKafkaError((err as Error).cause, 'UNKNOWN_SERVER_ERROR')).toBe(true);
    expect(broker.seen.filter((r) => r.api === 'InitProducerId').length).toBeGreaterThan(1);
  });

  it('wraps sequences as Java does', () => {
    expect(incrementSequence(5, 3)).toBe(8);
    expect(incrementSequence(2147483647, 1)).toBe(0);
    expect(incrementSequence(2147483640, 10)).toBe(2);
  });
});
