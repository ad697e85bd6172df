import { describe, expect, it } from 'vitest';
import { Client, validateConfig } from '../../src/client.js';
import { ConfigError } from '../../src/options/config-error.js';

describe('Client config', () => {
  it('accepts a list or a comma-separated string of brokers', () => {
    expect(validateConfig({ bootstrap: ['a:1', '[::1]:2'] }).bootstrap).toEqual([
      { host: 'a', port: 1 },
      { host: '::1', port: 2 },
    ]);
    expect(validateConfig({ bootstrap: 'a:1, b:2' }).bootstrap).toHaveLength(2);
  });

  it.each([
    [undefined, 'config'],
    [{}, 'bootstrap'],
    [{ bootstrap: [] }, 'bootstrap'],
    [{ bootstrap: ['a:1', 'b'] }, 'bootstrap[1]'],
    [{ bootstrap: ['a:1'], clientId: 5 }, 'clientId'],
    [{ bootstrap: ['a:1'], requestTimeoutMs: 0 }, 'requestTimeoutMs'],
    [{ bootstrap: ['a:1'], requestTimeoutMs: 1.5 }, 'requestTimeoutMs'],
    [{ bootstrap: ['a:1'], maxResponseBytes: 2 ** 31 }, 'maxResponseBytes'],
    [{ bootstrap: ['a:1'], connectTimeoutMs: '10' }, 'connectTimeoutMs'],
    [{ bootstrap: ['a:1'], metadataMaxAgeMs: -1 }, 'metadataMaxAgeMs'],
    [{ bootstrap: ['a:1'], requestTimeout: 5 }, 'requestTimeout'],
  ])('rejects %j naming %s', (config, option) => {
    let err: unknown;
    try {
      new Client(config as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).option).toBe(option);
    expect((err as ConfigError).retriable).toBe(false);
  });

  it('constructs without connecting', async () => {
    const client = new Client({ bootstrap: ['127.0.0.1:1'], requestTimeoutMs: 1000, maxResponseBytes: 1 << 20 });
    await client.close();
    await expect(client.metadata()).rejects.toThrow(/client is closed/);
  });
});
