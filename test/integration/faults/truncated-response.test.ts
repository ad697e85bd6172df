/**
 * Responses that stop half-way: a FIN in the middle of a frame (truncated) or an RST (reset). The client must
 * reject what was in flight with a typed ConnectionError, never decode the partial bytes as a response, open a
 * new connection, and (for a consumer) deliver every record exactly once and intact.
 */
import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../protocol/index.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { Connection } from '../../../src/network/connection.js';
import { ConnectionError } from '../../../src/network/errors.js';
import { targets } from '../consumer/setup.js';
import { API, consumeAll, deadline, RecordTally, reportNumbers, settle, useFaultScene } from './fault-kit.js';

const PARTITIONS = [0, 1];
const PER_PARTITION = 2_000;
const FAULTS = 8;

describe.each(targets())('truncated and reset responses, $label', (target) => {
  const scene = useFaultScene(target, {
    prefix: 'fault-truncated',
    partitions: PARTITIONS,
    perPartition: PER_PARTITION,
    requestTimeoutMs: 10_000,
  });

  it.each(['truncate', 'reset'] as const)(
    'a request whose response is cut short (%s) rejects with ConnectionError',
    async (kind) => {
      const { proxy } = scene;
      const i = target.bootstrap.lastIndexOf(':');
      const connect = () =>
        new Connection({
          host: target.bootstrap.slice(0, i),
          port: Number(target.bootstrap.slice(i + 1)),
          socketFactory: proxy.socketFactory,
          requestTimeoutMs: 10_000,
        }).connect();
      const connection = await connect();
      if (kind === 'truncate') proxy.truncateNextResponse({ apiKey: API.Metadata });
      else proxy.resetNextResponse({ apiKey: API.Metadata });
      const outcome = await deadline(settle(connection.request(Metadata, { topics: null })), 15_000, 'Metadata');
      expect(outcome.error).toBeInstanceOf(ConnectionError);
      expect((outcome.error as ConnectionError).retriable).toBe(true);
      expect(connection.isClosed).toBe(true);
      // A new connection works.
      const again = await connect();
      const md = await deadline(again.request(Metadata, { topics: null }), 15_000, 'Metadata again');
      expect(md.brokers.length).toBeGreaterThan(0);
      await again.close();
    },
  );

  it('a consumer reconnects after each; every record exactly once, in order, intact', {
    timeout: 120_000,
  }, async () => {
    const { proxy, host, topic } = scene;
    const consumer = new Consumer(host, {
      autoOffsetReset: 'earliest',
      maxPartitionFetchBytes: 4_096,
      fetchMaxWaitMs: 100,
    });
    const warnings: Error[] = [];
    consumer.on('warning', (w) => {
      if (w.error !== undefined) warnings.push(w.error);
    });
    const tally = new RecordTally(PARTITIONS, PER_PARTITION);
    let batches = 0;
    let faults = 0;
    const before = proxy.stats.truncated + proxy.stats.reset;
    try {
      consumer.assign(PARTITIONS.map((partition) => ({ topic, partition })));
      await consumeAll(consumer, tally, 90_000, {
        // Every few batches, arm the next fault: truncations and resets by turns, on Fetch responses.
        onBatch: () => {
          if (++batches % 3 !== 0 || faults >= FAULTS) return;
          if (faults++ % 2 === 0) proxy.truncateNextResponse({ apiKey: API.Fetch });
          else proxy.resetNextResponse({ apiKey: API.Fetch });
        },
      });
    } finally {
      proxy.heal();
      await consumer.close();
    }
    const applied = proxy.stats.truncated + proxy.stats.reset - before;
    reportNumbers({
      suite: 'truncated-response',
      fault: 'Fetch response truncated (FIN) or reset (RST) mid-frame',
      target: target.label,
      runs: applied,
      recordsChecked: tally.delivered,
      lost: tally.lost,
      duplicated: tally.duplicated,
      duplicateBound: 0,
      corrupt: tally.corrupt,
      outOfOrder: tally.outOfOrder,
    });
    expect(applied).toBeGreaterThanOrEqual(4);
    expect(tally.lost).toBe(0);
    expect(tally.duplicated).toBe(0);
    expect(tally.corrupt).toBe(0);
    expect(tally.outOfOrder).toBe(0);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.every((e) => e instanceof ConnectionError)).toBe(true);
  });
});
