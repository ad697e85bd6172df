/**
 * One timeout setting on the client governs every consumer call that sets none of its own (issue 22, item 2):
 * with the client's requestTimeoutMs at 3 s and a broker whose answers stop arriving (the fault proxy holds every
 * response back for a minute), ListOffsets, Fetch and OffsetCommit each give up after about 3 s, not the 30 s
 * default, and the consumer goes on once answers flow again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TidemarkError } from '../../../codecs/errors.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import { Consumer, type ConsumerHost } from '../../../src/consumer/consumer.js';
import type { ConsumerWarningEvent } from '../../../src/consumer/events.js';
import { Coordinators } from '../../../src/coordinator/coordinators.js';
import { FaultProxy } from '../../harness/fault-proxy.js';
import { deadline, until } from '../faults/fault-kit.js';
import { newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

const CLIENT_TIMEOUT_MS = 3_000;
/** Well under the 30 s default, with room for a loaded machine. */
const GIVES_UP_WITHIN_MS = 12_000;
const HELD_BACK_MS = 60_000;

describe.each(targets())("the consumer inherits the client's request timeout ($label)", (target) => {
  let proxy: FaultProxy;
  let host: ConsumerHost & { close(): Promise<void> };
  let topic: string;
  const tp = () => ({ topic, partition: 0 });

  beforeAll(async () => {
    const admin = newClient(target);
    topic = await newTopic(admin, 'client-timeout', 1);
    await produce(admin, topic, [0], 200, { batchSize: 20 });
    await admin.close();
    proxy = await FaultProxy.start(target.bootstrap);
    // What a Client built with `requestTimeoutMs: 3000` is to a consumer, with every connection through the proxy.
    const cluster = new Cluster({
      bootstrap: [target.bootstrap],
      socketFactory: proxy.socketFactory,
      requestTimeoutMs: CLIENT_TIMEOUT_MS,
    });
    const coordinators = new Coordinators(cluster, { requestTimeoutMs: CLIENT_TIMEOUT_MS });
    host = { cluster, coordinators, requestTimeoutMs: CLIENT_TIMEOUT_MS, close: () => cluster.close() };
  }, 120_000);
  afterAll(async () => {
    proxy?.heal();
    await host?.close();
    await proxy?.stop();
  });

  /** Milliseconds from now until the first warning `matches`, with that warning. */
  async function firstWarning(
    consumer: Consumer,
    matches: RegExp,
  ): Promise<{ ms: number; warning: ConsumerWarningEvent }> {
    const started = Date.now();
    return deadline(
      new Promise((resolve) => {
        const listener = (warning: ConsumerWarningEvent) => {
          if (!matches.test(`${warning.message} ${warning.error?.message ?? ''}`)) return;
          consumer.off('warning', listener);
          resolve({ ms: Date.now() - started, warning });
        };
        consumer.on('warning', listener);
      }),
      GIVES_UP_WITHIN_MS,
      `a warning matching ${matches}`,
    );
  }

  it('ListOffsets and Fetch give up at the client timeout, and reading goes on once answers flow again', async () => {
    const consumer = new Consumer(host, { autoOffsetReset: 'earliest' });
    try {
      await host.cluster.metadata({ topics: [topic], timeoutMs: 10_000 });
      proxy.latencyToClientMs = HELD_BACK_MS;
      consumer.assign([tp()]);
      const reading = readRecords(consumer, 100, 60_000);
      const lookup = await firstWarning(consumer, /ListOffsets/);
      expect(lookup.warning.error?.message).toContain(`${CLIENT_TIMEOUT_MS} ms`);
      expect(lookup.ms).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MS - 100);
      proxy.latencyToClientMs = 0;
      expect((await reading).length).toBe(100);

      proxy.latencyToClientMs = HELD_BACK_MS;
      const more = readRecords(consumer, 100, 60_000);
      const fetch = await firstWarning(consumer, /fetch from broker/);
      expect(fetch.ms).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MS - 100);
      proxy.latencyToClientMs = 0;
      expect((await more).length).toBe(100);
    } finally {
      proxy.latencyToClientMs = 0;
      await consumer.close();
    }
  }, 90_000);

  it('OffsetCommit gives up at the client timeout with a typed error', async () => {
    const groupId = uniqueGroup('client-timeout');
    const consumer = new Consumer(host, { groupId, autoOffsetReset: 'earliest', autoCommit: false });
    try {
      consumer.assign([tp()]);
      await readRecords(consumer, 10, 30_000);
      await consumer.commit();
      await readRecords(consumer, 10, 30_000);
      proxy.latencyToClientMs = HELD_BACK_MS;
      const started = Date.now();
      const error = await deadline(
        consumer.commit().then(
          () => undefined,
          (e: unknown) => e as Error,
        ),
        GIVES_UP_WITHIN_MS,
        'the commit',
      );
      const ms = Date.now() - started;
      expect(error).toBeInstanceOf(TidemarkError);
      expect(error?.message).toMatch(/OffsetCommit/);
      expect(error?.message).toContain(`${CLIENT_TIMEOUT_MS} ms`);
      expect(ms).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MS - 100);
      proxy.latencyToClientMs = 0;
      await until(
        async () =>
          await consumer.commit().then(
            () => true,
            () => false,
          ),
        30_000,
        'a commit after',
      );
    } finally {
      proxy.latencyToClientMs = 0;
      await consumer.close();
    }
  }, 90_000);
});
