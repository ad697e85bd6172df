import { afterEach, describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../../../../codecs/records/errors.js';
import { ErrorCode } from '../../../../protocol/error-codes.js';
import { KafkaError } from '../../../../protocol/kafka-error.js';
import { Consumer } from '../../../../src/consumer/consumer.js';
import { LogTruncationError } from '../../../../src/consumer/errors.js';
import type { OffsetResetEvent, TruncationEvent } from '../../../../src/consumer/events.js';
import type { ConsumerOptions } from '../../../../src/consumer/options.js';
import type { Coordinators } from '../../../../src/coordinator/coordinators.js';
import { OffsetOutOfRangeError } from '../../../../src/offsets/errors.js';
import { FakeKafka } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';

let open: Consumer[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  open = [];
});

function setUp(options: ConsumerOptions = {}) {
  const kafka = new FakeKafka([1]);
  kafka.createTopic('t', 1);
  kafka.append('t', 0, 10);
  const consumer = new Consumer(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    { autoOffsetReset: 'earliest', fetchMaxWaitMs: 10, ...options },
  );
  open.push(consumer);
  const truncations: TruncationEvent[] = [];
  const resets: OffsetResetEvent[] = [];
  consumer.on('truncation', (e) => truncations.push(e));
  consumer.on('offset-reset', (e) => resets.push(e));
  consumer.assign([{ topic: 't', partition: 0 }]);
  return { kafka, consumer, truncations, resets };
}

async function readAll(consumer: Consumer, count: number): Promise<bigint[]> {
  const out: bigint[] = [];
  for await (const batch of consumer.batches({ signal: AbortSignal.timeout(3_000) })) {
    for (const r of batch.records) out.push(r.offset);
    if (out.length >= count) {
      batch.ack();
      break;
    }
  }
  return out;
}

describe('fetch errors', () => {
  it('a diverging epoch in a Fetch response moves the position back to where the log agrees', async () => {
    const { kafka, consumer, truncations } = setUp();
    await readAll(consumer, 10);
    // The log was truncated to 6 and rewritten in epoch 1.
    kafka.fetchHooks.partition = (_node, _t, _p, fetchOffset) =>
      fetchOffset === 10n ? { divergingEpoch: { epoch: 0, endOffset: 6n } } : undefined;
    kafka.append('t', 0, 5);
    expect(await readAll(consumer, 9)).toEqual([6n, 7n, 8n, 9n, 10n, 11n, 12n, 13n, 14n]);
    expect(truncations).toEqual([
      expect.objectContaining({
        position: { offset: 10n, leaderEpoch: 0 },
        resumedAt: { offset: 6n, leaderEpoch: 0 },
        reread: { from: 6n, to: 10n },
        detectedBy: 'fetch-diverging-epoch',
      }),
    ]);
  });

  it('with auto offset reset none, a diverging epoch stops the partition with LogTruncationError', async () => {
    const { kafka, consumer } = setUp({ autoOffsetReset: 'none' });
    consumer.seek({ topic: 't', partition: 0 }, 0n);
    await readAll(consumer, 10);
    kafka.fetchHooks.partition = () => ({ divergingEpoch: { epoch: 0, endOffset: 4n } });
    const err = await readAll(consumer, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogTruncationError);
    expect(err).toMatchObject({ divergedAt: 4n, detectedBy: 'fetch-diverging-epoch' });
    // Sticky until the application seeks.
    await expect(readAll(consumer, 1)).rejects.toBeInstanceOf(LogTruncationError);
    kafka.fetchHooks.partition = undefined;
    consumer.seek({ topic: 't', partition: 0 }, 4n);
    expect(await readAll(consumer, 6)).toEqual([4n, 5n, 6n, 7n, 8n, 9n]);
  });

  it('OFFSET_OUT_OF_RANGE: reset by policy with an event naming the skipped range', async () => {
    const { kafka, consumer, resets } = setUp();
    await readAll(consumer, 3);
    kafka.partition('t', 0).logStart = 7n;
    consumer.seek({ topic: 't', partition: 0 }, 3n);
    expect(await readAll(consumer, 3)).toEqual([7n, 8n, 9n]);
    expect(resets.at(-1)).toMatchObject({
      type: 'offset-corrected',
      stored: 3n,
      corrected: 7n,
      skipped: { from: 3n, to: 7n },
    });
    // The first one: no stored position at start (auto offset reset).
    expect(consumer.metrics().resets).toBe(2);
  });

  it('OFFSET_OUT_OF_RANGE with policy fail: OffsetOutOfRangeError', async () => {
    const { kafka, consumer } = setUp({ offsetOutOfRange: 'fail' });
    kafka.partition('t', 0).logStart = 7n;
    consumer.seek({ topic: 't', partition: 0 }, 3n);
    await expect(readAll(consumer, 1)).rejects.toBeInstanceOf(OffsetOutOfRangeError);
  });

  it('an error the application must act on (authorization) stops the partition', async () => {
    const { kafka, consumer } = setUp();
    kafka.fetchHooks.partition = () => ({ errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED });
    const err = await readAll(consumer, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KafkaError);
    expect((err as KafkaError).errorName).toBe('TOPIC_AUTHORIZATION_FAILED');
  });

  it('a corrupt batch: the records before it are delivered, then the error, then a seek past it resumes', async () => {
    const { kafka, consumer } = setUp();
    const batches = kafka.partition('t', 0).batches;
    kafka.append('t', 0, 10);
    const bad = Buffer.from(batches[1].bytes);
    bad[bad.length - 1] ^= 0xff;
    batches[1].bytes = bad;
    expect(await readAll(consumer, 10)).toEqual([...Array(10).keys()].map(BigInt));
    const err = await readAll(consumer, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptRecordError);
    expect(await consumer.position({ topic: 't', partition: 0 }).catch((e: unknown) => e)).toBeInstanceOf(
      CorruptRecordError,
    );
    consumer.seek({ topic: 't', partition: 0 }, 20n);
    kafka.append('t', 0, 2);
    expect(await readAll(consumer, 2)).toEqual([20n, 21n]);
  });
});
