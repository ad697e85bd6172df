/**
 * The broker itself goes away and comes back while a consumer reads and commits: once with a clean shutdown
 * while records are being consumed, once with a crash (SIGKILL) right after it stored a commit whose answer
 * never reached the client. The test starts its own single-broker cluster (the shared brokers must stay up).
 * The consumer must carry on after each restart with its positions intact: every record exactly once (one
 * consumer keeps its positions in memory, so the duplicate bound is 0), every commit settled (stored, or
 * rejected with a typed error), the committed offset never backwards and, at the end, right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { haltBroker, type KafkaBroker, resumeBroker, startBroker } from '../../harness/broker.js';
import { FaultProxy } from '../../harness/fault-proxy.js';
import { newTopic, produce, uniqueGroup } from '../consumer/setup.js';
import {
  API,
  consumeAll,
  deadline,
  isTyped,
  type ProxiedHost,
  proxiedHost,
  RecordTally,
  reportNumbers,
  settle,
} from './fault-kit.js';

const PARTITIONS = [0, 1];
const PER_PARTITION = 1_500;
const HEAP = '384m';

describe('broker restarts while consuming and committing (Kafka 4.4, own broker)', () => {
  let broker: KafkaBroker;
  let admin: Client;
  let proxy: FaultProxy;
  let host: ProxiedHost;
  let topic: string;

  beforeAll(async () => {
    broker = await startBroker({ kafkaVersion: '4.4.0', name: `faults-restart-${process.pid}`, heap: HEAP });
    admin = new Client({ bootstrap: broker.bootstrap, requestTimeoutMs: 10_000 });
    topic = await newTopic(admin, 'fault-restart', PARTITIONS.length);
    await produce(admin, topic, PARTITIONS, PER_PARTITION, { batchSize: 50 });
    // The proxy only tells the test when a commit answer is on its way; the broker's ports survive a restart.
    proxy = await FaultProxy.start(broker.bootstrap);
    host = proxiedHost(broker.bootstrap, proxy, { requestTimeoutMs: 5_000 });
  }, 300_000);
  afterAll(async () => {
    await host?.close();
    await proxy?.stop();
    await admin?.close();
    await broker?.stop();
  }, 120_000);

  it('the consumer continues after each restart; nothing lost, nothing twice, commits right', {
    timeout: 600_000,
  }, async () => {
    const group = uniqueGroup('fault-restart');
    const partitions = PARTITIONS.map((partition) => ({ topic, partition }));
    const consumer = new Consumer(host, {
      groupId: group,
      autoCommit: false,
      autoOffsetReset: 'earliest',
      maxPartitionFetchBytes: 4_096,
      requestTimeoutMs: 5_000,
    });
    const tally = new RecordTally(PARTITIONS, PER_PARTITION);
    const commits = { resolved: 0, rejected: 0, errors: {} as Record<string, number>, untyped: [] as unknown[] };
    const restarts: Promise<void>[] = [];
    let phase: 'before' | 'consuming-restart' | 'between' | 'commit-restart' | 'after' = 'before';
    // Restart 2: the first commit answer after the first restart is over is lost, and the broker is killed.
    proxy.onResponse(API.OffsetCommit, () => {
      if (phase !== 'between' || tally.distinct < (tally.expected * 2) / 3) return 'forward';
      phase = 'commit-restart';
      restarts.push(
        restart(true).then(() => {
          phase = 'after';
        }),
      );
      return 'cut';
    });
    // What the consumer stored, commit after commit: never backwards.
    const stored = new Map<number, bigint>();
    let backwards = 0;
    consumer.on('commit', (e) => {
      for (const o of e.offsets) {
        if (o.offset < (stored.get(o.partition) ?? -1n)) backwards++;
        stored.set(o.partition, o.offset);
      }
    });
    let final = new Map<number, bigint>();
    try {
      consumer.assign(partitions);
      await consumeAll(consumer, tally, 400_000, {
        onBatch: async () => {
          // Restart 1: a clean shutdown while consuming, not awaited: reading goes on across it.
          if (phase === 'before' && tally.distinct >= tally.expected / 3) {
            phase = 'consuming-restart';
            restarts.push(
              restart(false).then(() => {
                phase = 'between';
              }),
            );
          }
          const outcome = await deadline(settle(consumer.commit()), 240_000, 'commit');
          if (outcome.error === undefined) commits.resolved++;
          else {
            commits.rejected++;
            const name = (outcome.error as Error).name;
            commits.errors[name] = (commits.errors[name] ?? 0) + 1;
            if (!isTyped(outcome.error)) commits.untyped.push(outcome.error);
          }
          // Slow enough that the restarts happen while there is still something to read.
          await new Promise((r) => setTimeout(r, 20));
        },
      });
      await deadline(Promise.all(restarts), 240_000, 'restarts');
      await deadline(consumer.commit(), 120_000, 'final commit');
      final = new Map(
        (await deadline(admin.offsets.committed(group, null, { timeoutMs: 120_000 }), 150_000, 'committed')).map(
          (o) => [o.partition, o.offset ?? -1n],
        ),
      );
      for (const [p, offset] of final) if (offset < (stored.get(p) ?? -1n)) backwards++;
    } finally {
      proxy.onResponse(API.OffsetCommit, undefined);
      await deadline(consumer.close(), 120_000, 'close').catch(() => {});
    }
    reportNumbers({
      suite: 'broker-restart',
      fault: 'broker restarted (SIGTERM) while consuming, then killed (SIGKILL) after storing a commit',
      target: 'Kafka 4.4.0 (own broker)',
      runs: restarts.length,
      recordsChecked: tally.delivered,
      lost: tally.lost,
      duplicated: tally.duplicated,
      duplicateBound: 0,
      corrupt: tally.corrupt,
      commitsResolved: commits.resolved,
      commitsRejected: commits.rejected,
      commitErrors: JSON.stringify(commits.errors),
      committedWentBackwards: backwards,
    });
    expect(restarts).toHaveLength(2);
    expect(phase).toBe('after');
    expect(tally.lost).toBe(0);
    expect(tally.duplicated).toBe(0);
    expect(tally.corrupt).toBe(0);
    expect(tally.outOfOrder).toBe(0);
    expect(commits.untyped).toEqual([]);
    expect(backwards).toBe(0);
    expect(Object.fromEntries(final)).toEqual(Object.fromEntries(PARTITIONS.map((p) => [p, BigInt(PER_PARTITION)])));
  });

  async function restart(kill: boolean): Promise<void> {
    await haltBroker(broker.name, { kill });
    await resumeBroker(broker.name, { heap: HEAP });
  }
});
