/**
 * Cluster.anyConnection when every bootstrap address is still in its backoff past the retry deadline. It used
 * to give up at once, in the microtask queue: the corruption soak (issue 22) saw a loop retrying it straight
 * away hold the event loop for 1.4 s. It must give up only when its retry time is over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cluster } from '../../../src/cluster/cluster.js';
import { ConnectionError } from '../../../src/network/errors.js';
import { deadPort } from '../network/fake-server.js';

const RETRY_TIMEOUT_MS = 50;
/** Far longer than the retry time, so after one failure no address can be tried before the deadline. */
const BACKOFF = { initialMs: 5_000, maxMs: 5_000 };

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

describe('anyConnection with every bootstrap address backing off', () => {
  it('fails only at its retry deadline, so a caller retrying at once lets timers run', async () => {
    const cluster = new Cluster({
      bootstrap: [`127.0.0.1:${await deadPort()}`],
      backoff: BACKOFF,
      retryTimeoutMs: RETRY_TIMEOUT_MS,
      connectTimeoutMs: 1_000,
    });
    cleanup.push(() => cluster.close());
    // The first attempt is refused and puts the address into a 4-6 s backoff.
    expect(await cluster.anyConnection().catch((e) => e)).toBeInstanceOf(ConnectionError);

    let timerRan = false;
    const timer = setTimeout(() => {
      timerRan = true;
    }, 0);
    const started = Date.now();
    const err = await cluster.anyConnection().catch((e) => e);
    const took = Date.now() - started;
    for (let i = 0; i < 5_000 && !timerRan; i++) await cluster.anyConnection().catch(() => {});
    clearTimeout(timer);

    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).message).toMatch(/no bootstrap broker answered within 50 ms/);
    expect(took).toBeGreaterThanOrEqual(RETRY_TIMEOUT_MS - 5);
    expect(timerRan).toBe(true);
  });
});
