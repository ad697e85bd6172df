/**
 * A metadata refresh stays within the cluster's retry budget (retryTimeoutMs). Its retries used to get a whole
 * request timeout each, wherever in the budget they started: a garbled answer late in the budget, then a
 * broker that says nothing, made a refresh last the budget plus a request timeout, and a caller queued behind
 * it for the next refresh waited for both (the corruption soak's metadata() calls: 5.1-5.9 s against 2 s).
 * Only retries are cut, though: a first request cut to a budget shorter than the request timeout left a silent
 * connection open, and every later refresh was handed the same one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Metadata } from '../../../protocol/index.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import { RequestTimeoutError } from '../../../src/network/errors.js';
import { FakeServer, type SeenRequest } from '../network/fake-server.js';

const RETRY_BUDGET_MS = 1_000;
const REQUEST_TIMEOUT_MS = 3_000;
/** When the first Metadata answer comes, garbled: well into the budget, with room for one retry. */
const GARBLED_AFTER_MS = 600;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

describe('a metadata refresh', () => {
  it('gives its last retry what is left of the retry budget, and keeps the connection it cut short', async () => {
    let metadataRequests = 0;
    const server = await FakeServer.start((req: SeenRequest) => {
      if (FakeServer.answerHandshake(req)) return;
      // The first answer is bytes no Metadata response can be; every later request goes unanswered.
      if (req.apiKey === Metadata.key && metadataRequests++ === 0) {
        const garbage = FakeServer.frame(req.correlationId, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x01]), 1);
        setTimeout(() => req.socket.write(garbage), GARBLED_AFTER_MS);
      }
    });
    cleanup.push(() => server.close());
    const cluster = new Cluster({
      bootstrap: [`127.0.0.1:${server.port}`],
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      retryTimeoutMs: RETRY_BUDGET_MS,
      backoff: { initialMs: 50, maxMs: 50 },
    });
    cleanup.unshift(() => cluster.close());

    const started = Date.now();
    const err = await cluster.metadata({ topics: ['t'] }).catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(metadataRequests).toBe(2);
    // With a whole request timeout the retry would end at about 600 + 50 + 3,000 ms.
    expect(took).toBeLessThan(RETRY_BUDGET_MS + 1_500);
    expect((err as RequestTimeoutError).timeoutMs).toBeLessThan(RETRY_BUDGET_MS);
    // The retry's connection was cut short by the budget, not found dead: it stays open for others.
    expect(cluster.pool.readyConnections()).toHaveLength(1);
  });

  it('gives its first request a whole request timeout, so a silent connection is closed even when the budget is shorter', async () => {
    const connections: unknown[] = [];
    let metadataRequests = 0;
    const server = await FakeServer.start((req: SeenRequest) => {
      if (!connections.includes(req.socket)) connections.push(req.socket);
      if (FakeServer.answerHandshake(req)) return;
      // Metadata is never answered.
      if (req.apiKey === Metadata.key) metadataRequests++;
    });
    cleanup.push(() => server.close());
    const cluster = new Cluster({
      bootstrap: [`127.0.0.1:${server.port}`],
      requestTimeoutMs: 1_500,
      retryTimeoutMs: 500,
      backoff: { initialMs: 50, maxMs: 50 },
    });
    cleanup.unshift(() => cluster.close());

    const first = await cluster.metadata({ topics: ['t'] }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(RequestTimeoutError);
    // Cut to the 500 ms budget, the request's timeout would prove nothing and the connection would stay in use.
    expect((first as RequestTimeoutError).timeoutMs).toBe(1_500);
    const second = await cluster.metadata({ topics: ['t'] }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(RequestTimeoutError);
    expect(metadataRequests).toBe(2);
    // The second refresh asked over a new connection: the silent one was closed.
    expect(connections).toHaveLength(2);
  });
});
