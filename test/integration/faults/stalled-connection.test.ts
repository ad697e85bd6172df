/**
 * A broker that stops answering without closing anything: live connections go half-open (nothing forwarded
 * either way, no FIN, no RST) and new ones are blackholed for a while. Requests must end with a typed timeout
 * instead of waiting forever, the client must give up on the dead connections and open new ones, and a
 * consumer must carry on where it was once the network heals: nothing lost, nothing twice.
 */
import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../protocol/index.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { Connection } from '../../../src/network/connection.js';
import { ConnectionError, RequestTimeoutError } from '../../../src/network/errors.js';
import { targets, uniqueGroup } from '../consumer/setup.js';
import { consumeAll, deadline, isTyped, RecordTally, reportNumbers, settle, useFaultScene } from './fault-kit.js';

const PARTITIONS = [0, 1];
const PER_PARTITION = 2_000;
const REQUEST_TIMEOUT_MS = 3_000;
/** How long new connections stay blackholed after the live ones went half-open. */
const BLACKHOLE_MS = 5_000;

describe.each(targets())('half-open and blackholed connections, $label', (target) => {
  const scene = useFaultScene(target, {
    prefix: 'fault-stalled',
    partitions: PARTITIONS,
    perPartition: PER_PARTITION,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });

  function connection(): Connection {
    const { proxy } = scene;
    const i = target.bootstrap.lastIndexOf(':');
    return new Connection({
      host: target.bootstrap.slice(0, i),
      port: Number(target.bootstrap.slice(i + 1)),
      socketFactory: proxy.socketFactory,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
  }

  it('a request on a half-open connection times out with RequestTimeoutError, on time', async () => {
    const { proxy } = scene;
    const c = await connection().connect();
    try {
      proxy.halfOpenAll();
      const started = Date.now();
      const outcome = await deadline(settle(c.request(Metadata, { topics: null })), 15_000, 'Metadata');
      expect(outcome.error).toBeInstanceOf(RequestTimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS + 3_000);
    } finally {
      await c.close();
    }
  });

  it('connecting to a blackholed broker fails with a typed error within the request timeout', async () => {
    const { proxy } = scene;
    proxy.blackhole = true;
    try {
      const outcome = await deadline(settle(connection().connect()), 15_000, 'connect');
      expect(outcome.error).toBeInstanceOf(ConnectionError);
      expect((outcome.error as ConnectionError).retriable).toBe(true);
    } finally {
      proxy.blackhole = false;
    }
  });

  it('a commit to a coordinator that went silent settles with a typed error or succeeds, and later commits work', {
    timeout: 120_000,
  }, async () => {
    const { admin, proxy, host, topic } = scene;
    const group = uniqueGroup('fault-stalled-commit');
    const offsets = (offset: bigint) => PARTITIONS.map((partition) => ({ topic, partition, offset }));
    // Coordinator known, connection open: then the broker goes silent.
    await deadline(host.offsets.commit(group, offsets(1n)), 30_000, 'first commit');
    proxy.halfOpenAll();
    const stalled = await deadline(
      settle(host.offsets.commit(group, offsets(2n), { timeoutMs: 2 * REQUEST_TIMEOUT_MS })),
      30_000,
      'commit on a silent coordinator',
    );
    if (stalled.error !== undefined) expect(isTyped(stalled.error), String(stalled.error)).toBe(true);
    // The network is fine again (new connections work), but the old ones stay dead: the client must move on.
    const after = await deadline(
      settle(host.offsets.commit(group, offsets(3n), { timeoutMs: 30_000 })),
      45_000,
      'commit after the stall',
    );
    expect(after.error).toBeUndefined();
    const stored = await deadline(admin.offsets.committed(group, null), 30_000, 'committed');
    expect(stored.map((o) => o.offset)).toEqual([3n, 3n]);
  });

  it('a consumer whose connections stall reconnects and reads every record once', { timeout: 120_000 }, async () => {
    const { proxy, host, topic } = scene;
    const consumer = new Consumer(host, {
      autoOffsetReset: 'earliest',
      maxPartitionFetchBytes: 4_096,
      fetchMaxWaitMs: 100,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    const warnings: Error[] = [];
    consumer.on('warning', (w) => {
      if (w.error !== undefined) warnings.push(w.error);
    });
    const tally = new RecordTally(PARTITIONS, PER_PARTITION);
    let stalled = 0;
    let heal: NodeJS.Timeout | undefined;
    try {
      consumer.assign(PARTITIONS.map((partition) => ({ topic, partition })));
      await consumeAll(consumer, tally, 90_000, {
        onBatch: () => {
          if (stalled > 0 || tally.distinct < tally.expected / 3) return;
          stalled = proxy.halfOpenAll();
          proxy.blackhole = true;
          heal = setTimeout(() => {
            proxy.blackhole = false;
          }, BLACKHOLE_MS);
        },
      });
    } finally {
      clearTimeout(heal);
      proxy.heal();
      await consumer.close();
    }
    reportNumbers({
      suite: 'stalled-connection',
      fault: 'live connections half-open, new ones blackholed for 5 s',
      target: target.label,
      runs: 1,
      connectionsStalled: stalled,
      recordsChecked: tally.delivered,
      lost: tally.lost,
      duplicated: tally.duplicated,
      duplicateBound: 0,
      corrupt: tally.corrupt,
      timeouts: warnings.filter((e) => e instanceof RequestTimeoutError).length,
    });
    expect(stalled).toBeGreaterThanOrEqual(1);
    expect(tally.lost).toBe(0);
    expect(tally.duplicated).toBe(0);
    expect(tally.corrupt).toBe(0);
    expect(tally.outOfOrder).toBe(0);
    // The stall surfaced as a typed timeout, and every warning carries a typed error.
    expect(warnings.some((e) => e instanceof RequestTimeoutError)).toBe(true);
    expect(warnings.every(isTyped)).toBe(true);
  });
});
