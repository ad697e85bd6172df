/**
 * The connection dies while an OffsetCommit response is on its way (the coordinator stored the offsets, the
 * client never hears so), on every other commit. Each commit must settle — stored after a retry, or rejected
 * with a typed error — the committed offset (read by a separate, fault-free client) must never go backwards,
 * and a consumer that takes over the group after the faults must start exactly at what was committed: nothing
 * lost, and nothing read twice beyond the records processed since the last commit that was confirmed.
 */
import { describe, expect, it } from 'vitest';
import { Consumer } from '../../../src/consumer/consumer.js';
import { targets, uniqueGroup } from '../consumer/setup.js';
import { API, consumeAll, deadline, isTyped, RecordTally, reportNumbers, settle, useFaultScene } from './fault-kit.js';

const PARTITIONS = [0, 1];
const PER_PARTITION = 1_500;

describe.each(targets())('connection cut mid-commit, $label', (target) => {
  const scene = useFaultScene(target, {
    prefix: 'fault-commit-cut',
    partitions: PARTITIONS,
    perPartition: PER_PARTITION,
    requestTimeoutMs: 10_000,
  });

  /** The group's committed offsets as a fault-free client reads them; -1 where none. */
  async function committed(group: string): Promise<Map<number, bigint>> {
    const { admin } = scene;
    const offsets = await deadline(admin.offsets.committed(group, null), 30_000, 'reading committed offsets');
    return new Map(offsets.map((o) => [o.partition, o.offset ?? -1n]));
  }

  it('commits settle, never move backwards, and a successor resumes at the committed offset', {
    timeout: 180_000,
  }, async () => {
    const { proxy, host, topic } = scene;
    const group = uniqueGroup('fault-commit-cut');
    const partitions = PARTITIONS.map((partition) => ({ topic, partition }));
    const options = {
      groupId: group,
      autoCommit: false,
      autoOffsetReset: 'earliest',
      maxPartitionFetchBytes: 4_096,
    } as const;
    let commitResponses = 0;
    let cuts = 0;
    proxy.onResponse(API.OffsetCommit, () => {
      if (++commitResponses % 2 === 1) return 'forward';
      cuts++;
      return 'cut';
    });
    const tally = new RecordTally(PARTITIONS, PER_PARTITION);
    const outcomes = { resolved: 0, rejected: 0, untyped: [] as unknown[] };
    let backwards = 0;
    let highest = new Map<number, bigint>();
    /** Records delivered since the last commit known to have succeeded: the bound on re-reads. */
    let sinceConfirmed = 0;
    let delivered = 0;

    // Phase 1: half the records, a commit after every batch, every other commit response lost.
    const first = new Consumer(host, options);
    try {
      first.assign(partitions);
      const half = new RecordTally(PARTITIONS, PER_PARTITION);
      const signal = AbortSignal.timeout(90_000);
      await deadline(
        (async () => {
          for await (const batch of first.batches({ signal })) {
            for (const r of batch.records) {
              tally.add(r);
              half.add(r);
            }
            delivered += batch.records.length;
            sinceConfirmed += batch.records.length;
            batch.ack();
            const outcome = await deadline(settle(first.commit()), 60_000, 'commit');
            if (outcome.error === undefined) {
              outcomes.resolved++;
              sinceConfirmed = 0;
            } else {
              outcomes.rejected++;
              if (!isTyped(outcome.error)) outcomes.untyped.push(outcome.error);
            }
            const now = await committed(group);
            for (const [p, offset] of now) {
              if (offset < (highest.get(p) ?? -1n)) backwards++;
            }
            highest = new Map([...highest, ...now].map(([p]) => [p, maxOf(highest.get(p), now.get(p))]));
            if (half.distinct >= tally.expected / 2) return;
          }
        })(),
        120_000,
        'phase 1',
      );
      // Closing commits too (through the same faults).
      await deadline(settle(first.close()), 60_000, 'close');
    } finally {
      proxy.onResponse(API.OffsetCommit, undefined);
      await first.close().catch(() => {});
    }
    const afterFaults = await committed(group);
    for (const [p, offset] of afterFaults) if (offset < (highest.get(p) ?? -1n)) backwards++;

    // Phase 2: a successor, faults healed, starts from what was committed and reads the rest.
    const second = new Consumer(host, options);
    try {
      second.assign(partitions);
      await consumeAll(second, tally, 90_000);
      await deadline(second.commit(), 30_000, 'final commit');
    } finally {
      await second.close();
    }
    const final = await committed(group);
    reportNumbers({
      suite: 'commit-cut',
      fault: 'connection cut while an OffsetCommit response is in flight',
      target: target.label,
      runs: cuts,
      recordsChecked: tally.delivered,
      lost: tally.lost,
      duplicated: tally.duplicated,
      duplicateBound: sinceConfirmed,
      commitsResolved: outcomes.resolved,
      commitsRejected: outcomes.rejected,
      committedWentBackwards: backwards,
    });
    expect(cuts).toBeGreaterThanOrEqual(5);
    expect(outcomes.untyped).toEqual([]);
    expect(outcomes.resolved).toBeGreaterThan(0);
    expect(backwards).toBe(0);
    expect(tally.lost).toBe(0);
    expect(tally.corrupt).toBe(0);
    // The successor re-reads at most what was processed after the last confirmed commit.
    expect(tally.duplicated).toBeLessThanOrEqual(sinceConfirmed);
    expect(delivered).toBeGreaterThanOrEqual(tally.expected / 2);
    expect(Object.fromEntries(final)).toEqual(Object.fromEntries(PARTITIONS.map((p) => [p, BigInt(PER_PARTITION)])));
  });
});

function maxOf(a: bigint | undefined, b: bigint | undefined): bigint {
  const x = a ?? -1n;
  const y = b ?? -1n;
  return x > y ? x : y;
}
