import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitBenchGroup, lastCommittedOffset, runCommitBench } from '../../../bench/commit.js';
import { Client } from '../../../src/client.js';
import { BrokerOffsetStore } from '../../../src/consumer/broker-offset-store.js';
import { bootstrap } from '../../harness/context.js';

/**
 * The commit benchmark (npm run bench -- --commit) at a tiny size against the real broker: every case is
 * measured, its figures are sane, the broker case really stored its offsets in Kafka, and the file store's
 * directory is gone afterwards.
 */
describe('commit benchmark', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('measures file and broker commits, 1 and 8 partitions, and cleans up', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'commit-bench-test-'));
    dirs.push(dir);
    const warmup = 2;
    const commits = 5;
    const { cases, markdown } = await runCommitBench({
      bootstrap: bootstrap(),
      kafkaVersion: 'test',
      rounds: 1,
      commits,
      // Generous: a loaded machine may take a second per fsync; the count, not the budget, should end each case.
      budgetMs: 60_000,
      dir,
      warmup,
      log: () => {},
    });

    expect(cases.map((c) => `${c.store}/${c.partitions}`)).toEqual([
      'FileOffsetStore (fsync)/1',
      'FileOffsetStore (fsync)/8',
      'FileOffsetStore (fsync: false)/1',
      'FileOffsetStore (fsync: false)/8',
      'BrokerOffsetStore (OffsetCommit)/1',
      'BrokerOffsetStore (OffsetCommit)/8',
    ]);
    for (const c of cases) {
      expect(c.commits).toBe(commits);
      expect(c.commitsPerSec).toBeGreaterThan(0);
      expect(c.p50Ms).toBeGreaterThan(0);
      expect(c.p99Ms).toBeGreaterThanOrEqual(c.p50Ms);
    }
    expect(markdown).toContain('| BrokerOffsetStore (OffsetCommit) | 8 |');
    expect(await readdir(dir)).toEqual([]); // the store's files were removed

    // The broker case committed through OffsetCommit: Kafka holds its last offsets for all 8 partitions.
    const client = new Client({ bootstrap: [bootstrap()] });
    try {
      const store = new BrokerOffsetStore({
        cluster: client.cluster,
        coordinators: client.coordinators,
        requestTimeoutMs: 15_000,
      });
      const topic = 'tidemark-bench-commit-8p';
      const partitions = Array.from({ length: 8 }, (_, partition) => ({ topic, partition }));
      const loaded = await store.load(commitBenchGroup(1, 8, 'BrokerOffsetStore (OffsetCommit)'), partitions);
      const offsets = [...(loaded.get(topic)?.values() ?? [])].map((s) => s?.offset);
      expect(offsets).toEqual(Array(8).fill(lastCommittedOffset(warmup + commits)));
    } finally {
      await client.close();
    }
  }, 180_000);
});
