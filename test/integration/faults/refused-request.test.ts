/**
 * A version table garbled in the handshake, against the real brokers through the fault proxy (issue 22): the
 * corruption soak hung the whole test run when a bit flip took an API out of an ApiVersions answer and a loop
 * retried the refused request at once. A table without Metadata must fail the handshake (retried on a new
 * connection); a request refused for any other API must reject without starving the event loop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { CreateTopics } from '../../../protocol/apis/create-topics.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import { UnsupportedVersionError } from '../../../src/network/errors.js';
import { FaultProxy } from '../../harness/fault-proxy.js';
import { targets } from '../consumer/setup.js';
import { rewriteBody } from './corruptions.js';

const REQUEST_TIMEOUT_MS = 3_000;
const KEY = { Metadata: 3, CreateTopics: 19 } as const;
/** How long the bare loop retries; a 10 ms timer must fire about this often in it. */
const LOOP_MS = 1_000;

describe.each(targets())('a garbled ApiVersions table, $label', (target) => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  /** A proxy whose first ApiVersions answer lacks `apiKey`, and a client behind it. */
  async function sceneWithout(apiKey: number): Promise<{ proxy: FaultProxy; cluster: Cluster }> {
    const proxy = await FaultProxy.start(target.bootstrap);
    proxy.rewriteNextResponse(
      rewriteBody(ApiVersions, (body) => {
        body.apiKeys = body.apiKeys.filter((k) => k.apiKey !== apiKey);
      }),
      { apiKey: ApiVersions.key },
    );
    const cluster = new Cluster({
      bootstrap: [target.bootstrap],
      socketFactory: proxy.socketFactory,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      connectTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    closing.push(
      () => cluster.close(),
      () => proxy.stop(),
    );
    return { proxy, cluster };
  }

  it('without Metadata: the handshake is refused and retried, and metadata arrives', async () => {
    const { proxy, cluster } = await sceneWithout(KEY.Metadata);
    const md = await cluster.metadata({ topics: [] });
    expect(md.brokers.size).toBeGreaterThan(0);
    expect(proxy.stats.rewritten).toBe(1);
  });

  it('without CreateTopics: a bare loop retrying the refused request still lets timers run', async () => {
    const { proxy, cluster } = await sceneWithout(KEY.CreateTopics);
    const connection = await cluster.anyConnection();
    expect(proxy.stats.rewritten).toBe(1);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const errors = new Set<string>();
    let attempts = 0;
    const started = Date.now();
    try {
      while (Date.now() - started < LOOP_MS) {
        attempts++;
        const err = await connection
          .request(CreateTopics, { topics: [], timeoutMs: 1_000, validateOnly: false })
          .catch((e) => e);
        errors.add(err instanceof UnsupportedVersionError ? 'UnsupportedVersionError' : String(err));
      }
    } finally {
      clearInterval(ticker);
    }
    expect([...errors]).toEqual(['UnsupportedVersionError']);
    expect(attempts).toBeGreaterThan(100);
    // Before the fix: 0 ticks, the loop held the event loop for the whole second.
    expect(ticks).toBeGreaterThan(LOOP_MS / 10 / 4);
  });
});
