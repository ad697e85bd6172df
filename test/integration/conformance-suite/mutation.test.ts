/**
 * Mutation test of the conformance suite: a proxy between the suite and the real 4.4 broker rewrites one kind
 * of response, and the checks that should notice fail with a reason naming the difference. A run through the
 * proxy without rewrites passes everything first, so every failure below comes from the rewrite alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS, runConformance } from '../../../src/conformance/index.js';
import type { Area, ConformanceReport } from '../../../src/conformance/types.js';
import { bootstrap } from '../../harness/context.js';
import { type Decoded, type Rewrite, RewritingProxy } from './rewriting-proxy.js';

let proxy: RewritingProxy;
let address: string;

beforeAll(async () => {
  const [host, port] = bootstrap().split(',')[0].split(':');
  proxy = new RewritingProxy({ host, port: Number(port) });
  address = await proxy.start();
});

afterAll(() => proxy.stop());

async function runWith(rewrite: Rewrite | undefined, only?: Area[]): Promise<ConformanceReport> {
  proxy.rewrites = rewrite === undefined ? [] : [rewrite];
  try {
    return await runConformance({ bootstrap: address, only, prefix: `tidemark-conformance-mut-${Date.now()}` });
  } finally {
    proxy.rewrites = [];
  }
}

const failures = (report: ConformanceReport) =>
  Object.fromEntries(report.results.filter((r) => r.result === 'fail').map((r) => [r.id, r.reason]));

const partitionsOf = (response: Decoded, list: string, inner: string): Decoded[] =>
  (response[list] ?? []).flatMap((t: Decoded) => t[inner] ?? []);

describe('conformance suite through a rewriting proxy', () => {
  it('passes every check when the proxy rewrites nothing', async () => {
    const report = await runWith(undefined);
    expect(failures(report)).toEqual({});
    expect(report.aborted).toBeUndefined();
  });

  it('a wrong error code: OffsetCommit answering NOT_LEADER_OR_FOLLOWER for an unknown topic', async () => {
    const report = await runWith(
      (api, _v, _req, response) => {
        if (api.name !== 'OffsetCommit') return;
        for (const p of partitionsOf(response, 'topics', 'partitions')) if (p.errorCode === 3) p.errorCode = 6;
      },
      ['offset-commit'],
    );
    const failed = failures(report);
    expect(Object.keys(failed).sort()).toEqual(['offset-commit.out-of-range-partition', 'offset-commit.unknown-topic']);
    expect(failed['offset-commit.unknown-topic']).toBe(
      'commit to an unknown topic: Kafka answers UNKNOWN_TOPIC_OR_PARTITION (3), the broker NOT_LEADER_OR_FOLLOWER (6)',
    );
  });

  it('a missing tagged field: ApiVersions without finalized features', async () => {
    const report = await runWith(
      (api, _v, _req, response) => {
        if (api.name !== 'ApiVersions' || response.finalizedFeatures === undefined) return;
        response.finalizedFeatures = [];
        response.finalizedFeaturesEpoch = -1n;
      },
      ['versions'],
    );
    expect(failures(report)).toEqual({
      'versions.finalized-features': 'finalizedFeatures (tag 2): Kafka lists metadata.version, the broker sent none',
    });
  });

  it('an off-by-one offset: ListOffsets latest one past the high watermark', async () => {
    const report = await runWith(
      (api, _v, request, response) => {
        if (api.name !== 'ListOffsets') return;
        const asked = partitionsOf(request, 'topics', 'partitions')[0]?.timestamp;
        if (asked !== -1n) return;
        for (const p of partitionsOf(response, 'topics', 'partitions')) if (p.offset >= 0n) p.offset += 1n;
      },
      ['list-offsets'],
    );
    const failed = failures(report);
    expect(Object.keys(failed).sort()).toEqual([
      'list-offsets.empty-partition',
      'list-offsets.isolation-levels',
      'list-offsets.latest',
    ]);
    expect(failed['list-offsets.latest']).toBe('latest offset: Kafka gives "6", the broker gave "7"');
    expect(failed['list-offsets.isolation-levels']).toMatch(
      /read_uncommitted latest \(high watermark\): Kafka gives "5", the broker gave "6"/,
    );
  });

  it('a dropped aborted-transaction entry: read_committed Fetch without the aborted transaction', async () => {
    const report = await runWith(
      (api, _v, _req, response) => {
        if (api.name !== 'Fetch') return;
        for (const p of partitionsOf(response, 'responses', 'partitions')) {
          if (Array.isArray(p.abortedTransactions) && p.abortedTransactions.length > 0) p.abortedTransactions = [];
        }
      },
      ['fetch'],
    );
    const failed = failures(report);
    expect(Object.keys(failed)).toEqual(['fetch.read-committed']);
    expect(failed['fetch.read-committed']).toMatch(
      /^abortedTransactions: Kafka gives \[\{"producerId":"\d+","firstOffset":"1"\}\], the broker gave \[\]$/,
    );
  });

  it('a session that ignores removed partitions: forgotten partitions keep coming back', async () => {
    const report = await runWith(
      (api, version, request, response) => {
        if (api.name !== 'Fetch' || request.forgottenTopicsData.length === 0) return;
        for (const f of request.forgottenTopicsData) {
          const same = (t: Decoded) => (version >= 13 ? t.topicId === f.topicId : t.topic === f.topic);
          let topic = response.responses.find(same);
          if (topic === undefined) {
            topic = { topic: f.topic, topicId: f.topicId, partitions: [] };
            response.responses.push(topic);
          }
          for (const partitionIndex of f.partitions) {
            topic.partitions.push({ partitionIndex, errorCode: 0, highWatermark: 2n, records: null });
          }
        }
      },
      ['fetch'],
    );
    expect(failures(report)).toEqual({
      'fetch.sessions':
        'partition 0 was removed from the session (forgotten) but the next incremental fetch still returns it',
    });
  });

  it('a broker going away mid-suite: a partial report, stopped early, no hang', async () => {
    proxy.dieAfter(60);
    const started = Date.now();
    const report = await runWith(undefined);
    expect(report.aborted).toMatch(/^the broker went away during [a-z-]+\.[a-z-]+: /);
    expect(report.abortKind).toBe('closed');
    expect(report.checks).toBeGreaterThan(0);
    expect(report.checks).toBeLessThan(ALL_CHECKS.length);
    expect(Date.now() - started).toBeLessThan(45_000);
  });
});
