/**
 * The conformance suite against real Apache Kafka: every check passes on 4.4 and 3.9, skips only where the
 * release lacks the feature (each with its reason), scratch topics and groups are gone afterwards, and a full
 * run stays under 60 s.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { ALL_CHECKS, runConformance } from '../../../src/conformance/index.js';
import { bootstrap, legacyBootstrap } from '../../harness/context.js';

/** What a release may skip, and why: nothing else may be skipped. */
const ALLOWED_SKIPS: Record<string, RegExp> = {
  // Kafka 3.9 offers ConsumerGroupHeartbeat only as a preview, off unless the broker enables it.
  'offset-commit.member-epoch-fencing': /consumer protocol is not enabled/,
  'groups.consumer-heartbeat': /consumer protocol is not enabled/,
  // Topic ids in OffsetCommit / OffsetFetch arrived in Kafka 4.x (v10).
  'offset-commit.topic-ids': /needs OffsetCommit v10\+, the broker offers up to v9/,
};

const targets = [
  { label: 'Kafka 4.4', address: bootstrap(), release: '4.4', skips: [] as string[] },
  { label: 'Kafka 3.9', address: legacyBootstrap(), release: '3.9', skips: Object.keys(ALLOWED_SKIPS) },
];

describe.each(targets)('conformance suite against $label', ({ address, release, skips }) => {
  it.skipIf(address === null)('passes every check, skipping only what the release lacks, in under 60 s', async () => {
    const report = await runConformance({ bootstrap: address!, prefix: `tidemark-conformance-it-${Date.now()}` });
    const failed = report.results.filter((r) => r.result === 'fail').map((r) => `${r.id}: ${r.reason}`);
    expect(failed).toEqual([]);
    expect(report.aborted).toBeUndefined();
    expect(report.nearestRelease).toBe(release);
    expect(report.checks).toBe(ALL_CHECKS.length);
    const skipped = report.results.filter((r) => r.result === 'skip');
    expect(skipped.map((r) => r.id).sort()).toEqual([...skips].sort());
    for (const s of skipped) expect(s.reason).toMatch(ALLOWED_SKIPS[s.id]);
    expect(report.passed + report.skipped).toBe(report.checks);
    expect(report.durationMs).toBeLessThan(60_000);
    expect(report.leftBehind).toEqual([]);

    const client = new Client({ bootstrap: address! });
    try {
      const topics = await client.admin.listTopics();
      expect(topics.filter((t) => t.startsWith('tidemark-conformance-it-'))).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
