import { describe, expect, it } from 'vitest';
import { parseBrokerAddress } from '../../../src/cluster/address.js';
import { backoffDelay, sleep } from '../../../src/cluster/backoff.js';
import { ConfigError } from '../../../src/options/config-error.js';

describe('parseBrokerAddress', () => {
  it('parses host:port, IPv6 in brackets and bare IPv6', () => {
    expect(parseBrokerAddress('kafka-1.internal:9092')).toEqual({ host: 'kafka-1.internal', port: 9092 });
    expect(parseBrokerAddress('[::1]:9093')).toEqual({ host: '::1', port: 9093 });
    expect(parseBrokerAddress('fe80::1:9094')).toEqual({ host: 'fe80::1', port: 9094 });
  });

  it.each(['localhost', ':9092', 'host:0', 'host:65536', 'host:port', 'a b:1', ''])('rejects %j', (text) => {
    expect(() => parseBrokerAddress(text, 'bootstrap[1]')).toThrow(ConfigError);
    expect(() => parseBrokerAddress(text, 'bootstrap[1]')).toThrow(/bootstrap\[1\]/);
  });

  it('rejects a non-string', () => {
    expect(() => parseBrokerAddress(9092)).toThrow(/expected "host:port", got number/);
  });
});

describe('backoff', () => {
  it('doubles from the initial delay up to the cap, within ±20%', () => {
    const opts = { initialMs: 100, maxMs: 1000 };
    for (let i = 0; i < 50; i++) {
      const first = backoffDelay(1, opts);
      expect(first).toBeGreaterThanOrEqual(80);
      expect(first).toBeLessThanOrEqual(120);
      const third = backoffDelay(3, opts);
      expect(third).toBeGreaterThanOrEqual(320);
      expect(third).toBeLessThanOrEqual(480);
      const capped = backoffDelay(20, opts);
      expect(capped).toBeGreaterThanOrEqual(800);
      expect(capped).toBeLessThanOrEqual(1200);
    }
  });

  it('sleeps, and stops sleeping when aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const slept = sleep(10_000, controller.signal);
    controller.abort(new Error('closed'));
    await expect(slept).rejects.toThrow('closed');
    expect(Date.now() - started).toBeLessThan(1000);
    await sleep(1);
  });
});
