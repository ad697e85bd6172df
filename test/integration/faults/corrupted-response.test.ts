/**
 * One specific corruption of one broker response, then clean traffic (issue 22): a garbled handshake, a
 * silent connection after a lost Produce or ListOffsets answer, a garbled InitProducerId or Produce answer, a
 * log start above the log end, a base offset with a flipped high bit, an acknowledgement with an impossible
 * offset, an impossible throttle time, a Metadata answer whose leader names no broker or no leader at all, and
 * an HTTP answer where a broker should be. Each must end in recovery of the same client objects or in a typed
 * error that says what happened, never in a dead producer, a raw RangeError, or a position past the high
 * watermark.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { Fetch } from '../../../protocol/apis/fetch.js';
import { InitProducerId } from '../../../protocol/apis/init-producer-id.js';
import { ListOffsets } from '../../../protocol/apis/list-offsets.js';
import { Metadata } from '../../../protocol/apis/metadata.js';
import { Produce } from '../../../protocol/apis/produce.js';
import type { ApiDef, ResponseOf } from '../../../protocol/schema.js';
import type { Client } from '../../../src/client.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { ImplausibleResponseError, NotKafkaBrokerError } from '../../../src/network/errors.js';
import { DeliveryUncertainError } from '../../../src/producer/errors.js';
import { Producer } from '../../../src/producer/producer.js';
import type { FaultProxy, ResponseAction, ResponseContext } from '../../harness/fault-proxy.js';
import { targets } from '../consumer/setup.js';
import { garbage, HTTP_ANSWER, rewriteBody } from './corruptions.js';
import {
  closeFaultScene,
  consumeAll,
  deadline,
  isTyped,
  openFaultScene,
  type ProxiedHost,
  proxiedHost,
  RecordTally,
  settle,
  until,
} from './fault-kit.js';

const KEY = { Produce: 0, Fetch: 1, ListOffsets: 2, Metadata: 3, ApiVersions: 18, InitProducerId: 22 } as const;
const PER_PARTITION = 300;
const REQUEST_TIMEOUT_MS = 3_000;

/** A hook that rewrites the first response `change` finds something to change in, and forwards all others. */
function rewriteFirst<A extends ApiDef>(
  api: A,
  change: (body: ResponseOf<A>) => boolean,
): (response: ResponseContext) => ResponseAction {
  let done = false;
  return (response) => {
    if (done) return 'forward';
    let changed = false;
    const action = rewriteBody(api, (body) => {
      changed = change(body);
    })(response);
    if (!changed) return 'forward';
    done = true;
    return action;
  };
}

describe.each(targets())('one corrupted response, then clean, $label', (target) => {
  let admin: Client;
  let proxy: FaultProxy;
  let host: ProxiedHost;
  let topic: string;
  const closing: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    ({ admin, topic, proxy, host } = await openFaultScene(target, {
      prefix: 'fault-corrupted',
      partitions: [0],
      perPartition: PER_PARTITION,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    }));
  });
  afterEach(async () => {
    proxy.heal();
    for (const close of closing.splice(0)) await close();
  });
  afterAll(() => closeFaultScene({ admin, proxy, host }));

  /** A client of its own (fresh connections, fresh handshakes), every connection through the proxy. */
  function proxiedCluster(): Cluster {
    const cluster = new Cluster({
      bootstrap: [target.bootstrap],
      socketFactory: proxy.socketFactory,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      connectTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    closing.push(() => cluster.close());
    return cluster;
  }

  function producer(options: ConstructorParameters<typeof Producer>[1] = {}): Producer {
    const p = new Producer(proxiedCluster(), { requestTimeoutMs: REQUEST_TIMEOUT_MS, lingerMs: 0, ...options });
    closing.unshift(() => p.close({ timeoutMs: 5_000 }));
    return p;
  }

  const latest = async () => (await admin.offsets.latest([{ topic, partition: 0 }]))[0].offset;
  const send = (p: Producer, value: string) =>
    deadline(p.send({ topic, partition: 0, value: Buffer.from(value) }), 40_000, `send ${value}`);

  /**
   * The next ApiVersions answer loses `apiKey` (a flipped key id does that), and every answer is counted: a table
   * without an API every broker serves is asked for again on the same connection, and two answers that disagree
   * replace the connection (src/network/version-recheck.ts).
   */
  function dropFromNextVersionTable(apiKey: number): { answers: () => number } {
    let answers = 0;
    const strip = rewriteFirst(ApiVersions, (body) => {
      body.apiKeys = body.apiKeys.filter((k) => k.apiKey !== apiKey);
      return true;
    });
    proxy.onResponse(KEY.ApiVersions, (response) => {
      answers++;
      return strip(response);
    });
    return { answers: () => answers };
  }

  it('a version table without Produce: asked again, a new connection, the same producer sends', async () => {
    const before = proxy.stats.rewritten;
    const table = dropFromNextVersionTable(KEY.Produce);
    const p = producer({ deliveryTimeoutMs: 30_000 });
    const first = await send(p, 'after-table-without-produce');
    expect(proxy.stats.rewritten - before).toBe(1);
    // The garbled answer, the second on the same connection (which disagreed), the new connection's.
    expect(table.answers()).toBe(3);
    expect((await send(p, 'and-again')).offset).toBe(first.offset + 1n);
  });

  it('a version table without Fetch: the same consumer reconnects and reads every record once', async () => {
    const own = proxiedHost(target.bootstrap, proxy, { requestTimeoutMs: REQUEST_TIMEOUT_MS });
    closing.push(() => own.close());
    // The shared connection first, clean: the garbled table is then the one of the connection the consumer
    // opens for fetching alone.
    await own.cluster.metadata({ topics: [topic] });
    const before = proxy.stats.rewritten;
    const table = dropFromNextVersionTable(KEY.Fetch);
    const consumer = new Consumer(own, { autoOffsetReset: 'earliest' });
    closing.unshift(() => consumer.close());
    consumer.assign([{ topic, partition: 0 }]);
    const tally = new RecordTally([0], PER_PARTITION);
    await consumeAll(consumer, tally, 30_000, { extraMs: 0 });
    expect(proxy.stats.rewritten - before).toBe(1);
    expect(table.answers()).toBe(3);
    expect(tally.lost).toBe(0);
    expect(tally.duplicated).toBe(0);
    expect(tally.outOfOrder).toBe(0);
  });

  it('a garbled ApiVersions answer on the first connection: the producer reconnects and sends', async () => {
    const before = proxy.stats.rewritten;
    proxy.rewriteNextResponse((r) => garbage(r), { apiKey: KEY.ApiVersions });
    const p = producer({ deliveryTimeoutMs: 30_000 });
    const first = await send(p, 'after-garbled-handshake');
    expect(first.offset).toBeGreaterThanOrEqual(0n);
    expect(proxy.stats.rewritten - before).toBe(1);
    expect((await send(p, 'and-again')).offset).toBe(first.offset + 1n);
  });

  it('a Produce answer lost on a connection gone silent: the next attempt opens a new connection', async () => {
    const p = producer({ deliveryTimeoutMs: 6 * REQUEST_TIMEOUT_MS });
    await send(p, 'warm-up');
    const start = await latest();
    proxy.stallNextResponse({ apiKey: KEY.Produce });
    const stalled = await send(p, 'answer-lost');
    expect(stalled.offset).toBe(start);
    expect((await send(p, 'next')).offset).toBe(start + 1n);
    // Idempotence: the resend after the timeout was recognised, not written twice.
    expect(await latest()).toBe(start + 2n);
  });

  it('a ListOffsets answer lost on a connection gone silent costs one call, not the ones after', async () => {
    const tp = [{ topic, partition: 0 }];
    await host.offsets.latest(tp);
    proxy.stallNextResponse({ apiKey: KEY.ListOffsets });
    const first = await deadline(settle(host.offsets.latest(tp)), 20_000, 'first latest()');
    if (first.error !== undefined) expect(isTyped(first.error), String(first.error)).toBe(true);
    for (let i = 0; i < 3; i++) {
      const later = await deadline(settle(host.offsets.latest(tp)), 20_000, 'later latest()');
      expect(later.error, String(later.error)).toBeUndefined();
    }
  });

  // The flipped error code ended the corruption soak's producer once (BROKER_NOT_AVAILABLE from NONE, one bit).
  it.each([
    { garbled: 'garbled', rewrite: (r: ResponseContext) => garbage(r) },
    {
      garbled: 'with a flipped error code',
      rewrite: rewriteBody(InitProducerId, (body) => {
        body.errorCode ^= 8;
      }),
    },
    {
      garbled: 'with a flipped epoch sign',
      rewrite: rewriteBody(InitProducerId, (body) => {
        body.producerEpoch ^= -32_768;
      }),
    },
  ])('an InitProducerId answer $garbled is retried: the producer lives', async ({ rewrite }) => {
    const before = proxy.stats.rewritten;
    proxy.rewriteNextResponse(rewrite, { apiKey: KEY.InitProducerId });
    const p = producer({ deliveryTimeoutMs: 30_000 });
    // The producer asks for its id on its own, before any send: it must get one after the garbled answer.
    await until(() => p.producerIdAndEpoch !== undefined, 20_000, 'a producer id after a garbled answer');
    expect(proxy.stats.rewritten - before).toBe(1);
    expect(p.producerIdAndEpoch?.epoch).toBeGreaterThanOrEqual(0);
    expect((await send(p, 'after-garbled-init')).offset).toBeGreaterThanOrEqual(0n);
  });

  // The corruption soak's unacknowledged send: a garbled leader in one Metadata answer, served by the metadata
  // cache until its max age (5 minutes), held every record for the partition (src/cluster/cluster.ts noteError,
  // src/producer/cluster-view.ts leaderUnknown).
  it.each([
    { garbled: 'a leader id that names no broker (a flipped bit)', leaderId: (id: number) => id ^ 4, errorCode: 0 },
    { garbled: 'no leader (an election, or a flipped sign bit)', leaderId: () => -1, errorCode: 5 },
  ])('a Metadata answer with $garbled: fetched again, the producer sends', async ({ leaderId, errorCode }) => {
    proxy.onResponse(
      KEY.Metadata,
      rewriteFirst(Metadata, (body) => {
        const partitions = body.topics.filter((t) => t.name === topic).flatMap((t) => t.partitions);
        for (const q of partitions) {
          q.leaderId = leaderId(q.leaderId);
          q.errorCode = errorCode;
        }
        return partitions.length > 0;
      }),
    );
    const before = proxy.stats.rewritten;
    // Far below the cache's max age: the record fails with DeliveryTimeoutError unless the topic is fetched again.
    const p = producer({ deliveryTimeoutMs: 8_000 });
    const sent = await settle(send(p, 'after-garbled-leader'));
    expect(sent.error, String(sent.error)).toBeUndefined();
    expect(proxy.stats.rewritten - before).toBe(1);
  });

  it('a garbled Produce answer: the idempotent producer resends and the record is written once', async () => {
    const p = producer({ deliveryTimeoutMs: 30_000 });
    await send(p, 'warm-up');
    const start = await latest();
    proxy.rewriteNextResponse((r) => garbage(r), { apiKey: KEY.Produce });
    const sent = await send(p, 'answer-garbled');
    expect(sent.offset).toBe(start);
    expect(await latest()).toBe(start + 1n);
  });

  it('a garbled Produce answer without idempotence: DeliveryUncertainError, the record may be written', async () => {
    const p = producer({ idempotent: false, acks: 1, deliveryTimeoutMs: 30_000 });
    await send(p, 'warm-up');
    const start = await latest();
    proxy.rewriteNextResponse((r) => garbage(r), { apiKey: KEY.Produce });
    const outcome = await settle(send(p, 'answer-garbled'));
    expect(outcome.error).toBeInstanceOf(DeliveryUncertainError);
    expect((outcome.error as DeliveryUncertainError).maybeWritten).toBe(true);
    expect((outcome.error as Error).message).toMatch(/may have been written/);
    expect(await latest()).toBe(start + 1n);
    expect((await send(p, 'next')).offset).toBe(start + 1n);
  });

  it('an acknowledgement naming a negative offset is not believed: resent, the real offset returned', async () => {
    const p = producer({ deliveryTimeoutMs: 30_000 });
    await send(p, 'warm-up');
    const start = await latest();
    proxy.onResponse(
      KEY.Produce,
      rewriteFirst(Produce, (body) => {
        for (const t of body.responses) for (const q of t.partitionResponses) q.baseOffset = -1_000n;
        return true;
      }),
    );
    const sent = await send(p, 'ack-implausible');
    expect(sent.offset).toBe(start);
    expect(await latest()).toBe(start + 1n);
  });

  it('a throttle time of 24 days is capped and reported; the next send goes out', async () => {
    const p = producer({ deliveryTimeoutMs: 10_000 });
    await send(p, 'warm-up');
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      proxy.onResponse(
        KEY.Produce,
        rewriteFirst(Produce, (body) => {
          body.throttleTimeMs = 2 ** 31 - 1;
          return true;
        }),
      );
      await send(p, 'throttled');
      const started = Date.now();
      await send(p, 'after-the-throttle');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(warnings.some((w) => w instanceof ImplausibleResponseError && /throttle time/.test(w.message))).toBe(true);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a log start above the log end is retried, never a RangeError; the consumer starts at 0', async () => {
    proxy.onResponse(
      KEY.ListOffsets,
      rewriteFirst(ListOffsets, (body) => {
        let changed = false;
        for (const t of body.topics) {
          for (const q of t.partitions) {
            if (t.name === topic && q.offset === 0n) {
              q.offset = 8_192n;
              changed = true;
            }
          }
        }
        return changed;
      }),
    );
    const before = proxy.stats.rewritten;
    const consumer = new Consumer(host, { autoOffsetReset: 'earliest' });
    closing.push(() => consumer.close());
    consumer.assign([{ topic, partition: 0 }]);
    const position = await deadline(consumer.position({ topic, partition: 0 }), 30_000, 'position');
    expect(position).toBe(0n);
    expect(proxy.stats.rewritten - before).toBe(1);
  });

  it('a base offset with a flipped high bit never moves the position: dropped, reported, fetched again', {
    timeout: 90_000,
  }, async () => {
    const end = await latest();
    proxy.onResponse(
      KEY.Fetch,
      rewriteFirst(Fetch, (body) => {
        for (const t of body.responses) {
          for (const q of t.partitions) {
            if (q.records === null || q.records.length < 12) continue;
            const copy = Buffer.from(q.records);
            copy.writeBigInt64BE(copy.readBigInt64BE(0) + 2n ** 30n, 0);
            q.records = copy;
            return true;
          }
        }
        return false;
      }),
    );
    const before = proxy.stats.rewritten;
    const consumer = new Consumer(host, { autoOffsetReset: 'earliest', maxPartitionFetchBytes: 2_048 });
    closing.push(() => consumer.close());
    const warnings: Error[] = [];
    consumer.on('warning', (w) => {
      if (w.error !== undefined) warnings.push(w.error);
    });
    consumer.assign([{ topic, partition: 0 }]);
    const tally = new RecordTally([0], PER_PARTITION);
    let beyond = 0;
    await consumeAll(consumer, tally, 60_000, {
      extraMs: 0,
      onBatch: async () => {
        if ((await consumer.position({ topic, partition: 0 })) > end) beyond++;
      },
    });
    expect(proxy.stats.rewritten - before).toBe(1);
    expect(beyond).toBe(0);
    expect(tally.lost).toBe(0);
    expect(tally.duplicated).toBe(0);
    expect(tally.outOfOrder).toBe(0);
    expect(warnings.some((e) => e instanceof ImplausibleResponseError)).toBe(true);
  });

  it('an HTTP answer where a broker should be is "not a Kafka broker", at once', async () => {
    proxy.rewriteNextResponse(() => ({ replaceRaw: HTTP_ANSWER }), { apiKey: KEY.ApiVersions });
    const started = Date.now();
    const outcome = await deadline(settle(proxiedCluster().metadata()), 20_000, 'metadata');
    expect(outcome.error).toBeInstanceOf(NotKafkaBrokerError);
    expect((outcome.error as Error).message).toMatch(/not a Kafka broker: it answered with text beginning "HTTP"/);
    expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS);
  });
});
