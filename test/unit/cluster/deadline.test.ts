import { describe, expect, it } from 'vitest';
import { TidemarkError } from '../../../codecs/errors.js';
import { CallTimeoutError, Deadline, retry } from '../../../src/cluster/deadline.js';
import { RequestAbortedError } from '../../../src/network/errors.js';
import { ConfigError } from '../../../src/options/config-error.js';

const never = () => new Promise<never>(() => {});
const retriable = (message: string) => new TidemarkError(message, { retriable: true });

describe('Deadline', () => {
  it('passes through what settles in time', async () => {
    const d = new Deadline('Op', 1_000);
    await expect(d.race(Promise.resolve(7))).resolves.toBe(7);
    await expect(d.race(Promise.reject(new Error('no')))).rejects.toThrow('no');
  });

  it('settles a wait that never ends with CallTimeoutError at the deadline', async () => {
    const d = new Deadline('OffsetCommit', 150);
    const started = Date.now();
    const err = await d.race(never()).catch((e) => e);
    expect(err).toBeInstanceOf(CallTimeoutError);
    expect(err.message).toContain('OffsetCommit did not complete within 150 ms');
    expect(err.retriable).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('names the failure it was retrying when time runs out', async () => {
    const d = new Deadline('OffsetFetch', 100);
    d.note(retriable('NOT_COORDINATOR'));
    const err = await d.race(never()).catch((e) => e);
    expect(err.message).toContain('last error: NOT_COORDINATOR');
    expect(err.cause.message).toBe('NOT_COORDINATOR');
  });

  it('settles with RequestAbortedError as soon as the signal fires', async () => {
    const ac = new AbortController();
    const d = new Deadline('ListOffsets', 10_000, ac.signal);
    setTimeout(() => ac.abort(new Error('user')), 30);
    const started = Date.now();
    const err = await d.race(never()).catch((e) => e);
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect(err.cause.message).toBe('user');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('rejects at once when already aborted or past due', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(new Deadline('Op', 1_000, ac.signal).race(Promise.resolve(1))).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    await expect(new Deadline('Op', 0).race(Promise.resolve(1))).rejects.toBeInstanceOf(CallTimeoutError);
  });

  it('bounds request timeouts by what is left', () => {
    const d = new Deadline('Op', 500);
    expect(d.requestOptions(30_000).timeoutMs).toBeLessThanOrEqual(500);
    expect(d.requestOptions(100).timeoutMs).toBe(100);
  });

  it('cuts a backoff short at the deadline and throws the timeout', async () => {
    const d = new Deadline('Op', 120);
    const started = Date.now();
    const err = await d.backoff(10, retriable('down'), { initialMs: 5_000, maxMs: 5_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(CallTimeoutError);
    expect(err.message).toContain('down');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('checks timeoutMs like a client option', () => {
    expect(() => Deadline.of('Op', { timeoutMs: -1 }, 100)).toThrow(ConfigError);
    expect(() => Deadline.of('Op', { timeoutMs: 1.5 }, 100)).toThrow(ConfigError);
    expect(Deadline.of('Op', {}, 100).timeoutMs).toBe(100);
  });
});

describe('retry', () => {
  const fast = { backoff: { initialMs: 1, maxMs: 5 } };

  it('retries retriable failures until one attempt succeeds', async () => {
    let n = 0;
    const seen: unknown[] = [];
    const result = await retry(
      new Deadline('Op', 5_000),
      async () => {
        n++;
        if (n < 3) throw retriable(`fail ${n}`);
        return 'ok';
      },
      { ...fast, onRetry: (err) => seen.push(err) },
    );
    expect(result).toBe('ok');
    expect(seen).toHaveLength(2);
  });

  it('throws a failure that is not retriable at once', async () => {
    let n = 0;
    const err = await retry(
      new Deadline('Op', 5_000),
      async () => {
        n++;
        throw new TidemarkError('fatal');
      },
      fast,
    ).catch((e) => e);
    expect(err.message).toBe('fatal');
    expect(n).toBe(1);
  });

  it('settles on time with CallTimeoutError when every attempt fails retriably', async () => {
    const started = Date.now();
    const err = await retry(
      new Deadline('OffsetCommit', 200),
      async () => {
        throw retriable('COORDINATOR_NOT_AVAILABLE');
      },
      fast,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(CallTimeoutError);
    expect(err.message).toContain('COORDINATOR_NOT_AVAILABLE');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('settles on time when an attempt hangs', async () => {
    const started = Date.now();
    const err = await retry(new Deadline('Op', 150), never, fast).catch((e) => e);
    expect(err).toBeInstanceOf(CallTimeoutError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
