/**
 * The connection dies while a Fetch response is on its way (the broker answered, the client never hears it),
 * again and again while a consumer reads two partitions. The consumer must notice (a typed ConnectionError,
 * reported as a warning), reconnect, fetch again from where it was, and deliver every record exactly once, in
 * order: a lost fetch response may cost time, never a record and never a duplicate.
 */
import { describe, expect, it } from 'vitest';
import { Consumer } from '../../../src/consumer/consumer.js';
import { ConnectionError } from '../../../src/network/errors.js';
import { targets, uniqueGroup } from '../consumer/setup.js';
import { API, consumeAll, deadline, isTyped, RecordTally, reportNumbers, settle, useFaultScene } from './fault-kit.js';

const PARTITIONS = [0, 1];
const PER_PARTITION = 2_000;
/** Every how many-th Fetch response is lost, and how many are lost in all. */
const EVERY = 3;
const CUTS = 10;

describe.each(targets())('connection cut mid-fetch, $label', (target) => {
  const scene = useFaultScene(target, {
    prefix: 'fault-fetch-cut',
    partitions: PARTITIONS,
    perPartition: PER_PARTITION,
    requestTimeoutMs: 10_000,
  });

  it('resumes after each cut; every record exactly once, in order, intact', { timeout: 120_000 }, async () => {
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
    let fetches = 0;
    let cuts = 0;
    proxy.onResponse(API.Fetch, () => {
      fetches++;
      if (cuts < CUTS && fetches % EVERY === 0) {
        cuts++;
        return 'cut';
      }
      return 'forward';
    });
    const tally = new RecordTally(PARTITIONS, PER_PARTITION);
    try {
      consumer.assign(PARTITIONS.map((partition) => ({ topic, partition })));
      await consumeAll(consumer, tally, 90_000);
    } finally {
      proxy.onResponse(API.Fetch, undefined);
      await consumer.close();
    }
    reportNumbers({
      suite: 'fetch-cut',
      fault: 'connection cut while a Fetch response is in flight',
      target: target.label,
      runs: cuts,
      recordsChecked: tally.delivered,
      lost: tally.lost,
      duplicated: tally.duplicated,
      duplicateBound: 0,
      corrupt: tally.corrupt,
      outOfOrder: tally.outOfOrder,
    });
    // How many fetches a read takes depends on timing; enough of them must have been cut.
    expect(cuts).toBeGreaterThanOrEqual(CUTS / 2);
    expect(tally.lost).toBe(0);
    expect(tally.duplicated).toBe(0);
    expect(tally.outOfOrder).toBe(0);
    expect(tally.corrupt).toBe(0);
    // The fault was seen, as a typed error: each cut closed the fetch connection under a request.
    const cutErrors = warnings.filter((e) => e instanceof ConnectionError);
    expect(cutErrors.length).toBeGreaterThanOrEqual(1);
    expect(warnings.every((e) => e instanceof ConnectionError)).toBe(true);
    expect(proxy.stats.connections).toBeGreaterThan(cuts);
  });

  it('a group member whose every connection drops now and then keeps its partitions and reads every record once', {
    timeout: 180_000,
  }, async () => {
    const { proxy, host, topic } = scene;
    const consumer = new Consumer(host, {
      groupId: uniqueGroup('fault-drop-all'),
      autoCommit: false,
      autoOffsetReset: 'earliest',
      maxPartitionFetchBytes: 4_096,
      fetchMaxWaitMs: 100,
    });
    const warnings: Error[] = [];
    consumer.on('warning', (w) => {
      if (w.error !== undefined) warnings.push(w.error);
    });
    // Partitions taken away while reading (close() revokes them too, which does not count).
    let reading = true;
    let rebalances = 0;
    consumer.on('rebalance', (e) => {
      if (reading && e.kind !== 'assigned') rebalances++;
    });
    const tally = new RecordTally(PARTITIONS, PER_PARTITION);
    let batches = 0;
    let drops = 0;
    /** Re-read bound: records delivered after the last confirmed commit, summed over any loss of partitions. */
    let confirmedAt = 0;
    let bound = 0;
    consumer.on('rebalance', (e) => {
      if (reading && e.kind !== 'assigned') bound += tally.delivered - confirmedAt;
    });
    const untyped: unknown[] = [];
    try {
      await deadline(consumer.subscribe({ topics: [topic] }), 60_000, 'subscribe');
      await consumeAll(consumer, tally, 150_000, {
        onBatch: async () => {
          const outcome = await deadline(settle(consumer.commit()), 60_000, 'commit');
          if (outcome.error === undefined) confirmedAt = tally.delivered;
          else if (!isTyped(outcome.error)) untyped.push(outcome.error);
          // Every connection (fetch, coordinator, metadata) goes at once, every 5th batch.
          if (++batches % 5 === 0 && drops < CUTS) drops += proxy.dropAll() > 0 ? 1 : 0;
        },
      });
    } finally {
      reading = false;
      await consumer.close();
    }
    reportNumbers({
      suite: 'fetch-cut',
      fault: 'every connection of a group member dropped at once',
      target: target.label,
      runs: drops,
      recordsChecked: tally.delivered,
      lost: tally.lost,
      duplicated: tally.duplicated,
      duplicateBound: bound,
      rebalances,
      corrupt: tally.corrupt,
    });
    expect(drops).toBeGreaterThanOrEqual(CUTS / 2);
    expect(untyped).toEqual([]);
    expect(tally.lost).toBe(0);
    expect(tally.corrupt).toBe(0);
    // Dropped connections are not a reason to leave the group: no partition changes hands, nothing is re-read.
    expect(rebalances).toBe(0);
    expect(tally.duplicated).toBeLessThanOrEqual(bound);
    expect(warnings.every(isTyped)).toBe(true);
  });
});
