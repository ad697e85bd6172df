import { describe, expect, it } from 'vitest';
import { Client } from '../../../../src/client.js';
import { Consumer } from '../../../../src/consumer/consumer.js';
import { resolveConsumerOptions } from '../../../../src/consumer/options.js';
import { ConfigError } from '../../../../src/options/config-error.js';

describe('consumer options', () => {
  it("defaults: Java's where Java has one; auto-commit only with a group", () => {
    const o = resolveConsumerOptions({}, 30_000);
    expect(o).toMatchObject({
      autoOffsetReset: 'latest',
      outOfRange: 'latest',
      isolationLevel: 'read_uncommitted',
      autoCommit: false,
      autoCommitIntervalMs: 5_000,
      maxBufferedBytes: 32 * 1024 * 1024,
    });
    expect(o.fetch).toMatchObject({
      minBytes: 1,
      maxWaitMs: 500,
      maxBytes: 50 * 1024 * 1024,
      maxPartitionBytes: 1024 * 1024,
      sessions: true,
      checkCrc: true,
      requestTimeoutMs: 30_000,
    });
    expect(resolveConsumerOptions({ groupId: 'g' }, 30_000).autoCommit).toBe(true);
  });

  it("inherits the client's requestTimeoutMs unless it sets its own", async () => {
    const client = new Client({ bootstrap: '127.0.0.1:9', requestTimeoutMs: 3_000 });
    try {
      expect(client.consumer().options.fetch.requestTimeoutMs).toBe(3_000);
      expect(new Consumer(client, { groupId: 'g' }).options.fetch.requestTimeoutMs).toBe(3_000);
      expect(client.consumer({ requestTimeoutMs: 5_000 }).options.fetch.requestTimeoutMs).toBe(5_000);
      const defaults = new Client({ bootstrap: '127.0.0.1:9' });
      expect(defaults.consumer().options.fetch.requestTimeoutMs).toBe(30_000);
      await defaults.close();
    } finally {
      await client.close();
    }
  });

  it("refuses classic-only group options with protocol 'consumer', naming the option", () => {
    for (const group of [
      { sessionTimeoutMs: 10_000 },
      { heartbeatIntervalMs: 1_000 },
      { assignors: ['range' as const] },
    ]) {
      const name = Object.keys(group)[0];
      expect(() => resolveConsumerOptions({ groupId: 'g', group: { protocol: 'consumer', ...group } }, 1)).toThrow(
        expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(`group.${name}`) }),
      );
      expect(() => resolveConsumerOptions({ groupId: 'g', group: { protocol: 'classic', ...group } }, 1)).not.toThrow();
    }
    expect(() =>
      resolveConsumerOptions({ groupId: 'g', group: { protocol: 'consumer', serverAssignor: 'uniform' } }, 1),
    ).not.toThrow();
  });

  it('auto offset reset none makes an out-of-range position an error unless said otherwise', () => {
    expect(resolveConsumerOptions({ autoOffsetReset: 'none' }, 1).outOfRange).toBe('fail');
    expect(resolveConsumerOptions({ autoOffsetReset: 'none', offsetOutOfRange: 'clamp' }, 1).outOfRange).toBe('clamp');
  });

  it('refuses unknown names, wrong types and values out of range', () => {
    expect(() => resolveConsumerOptions({ fetchMaxWait: 5 } as never, 1)).toThrow(ConfigError);
    expect(() => resolveConsumerOptions({ autoOffsetReset: 'smallest' } as never, 1)).toThrow(/autoOffsetReset/);
    expect(() => resolveConsumerOptions({ fetchMaxBytes: 0 }, 1)).toThrow(/fetchMaxBytes/);
    expect(() => resolveConsumerOptions({ groupId: '' }, 1)).toThrow(/groupId/);
    expect(() => resolveConsumerOptions({ autoCommit: true }, 1)).toThrow(/autoCommit/);
    expect(() => resolveConsumerOptions({ isolationLevel: 'committed' } as never, 1)).toThrow(/isolationLevel/);
  });

  it('checks the nested group options and the offset store by the same rules, naming the path', () => {
    const refusal = (options: unknown) => {
      try {
        resolveConsumerOptions(options as never, 1);
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('accepted');
    };
    expect(refusal({ groupId: 'g', group: { sesionTimeoutMs: 10_000 } })).toMatchObject({
      name: 'ConfigError',
      option: 'group.sesionTimeoutMs',
    });
    expect(refusal({ groupId: 'g', group: { maxPollIntervalMs: 0 } }).option).toBe('group.maxPollIntervalMs');
    expect(refusal({ groupId: 'g', group: { retryBackoff: { initialMs: -1 } } }).option).toBe(
      'group.retryBackoff.initialMs',
    );
    expect(refusal({ groupId: 'g', offsetStore: { load() {} } }).message).toMatch(
      /offsetStore: expected an OffsetStore/,
    );
    expect(refusal({ fetchMaxWait: 5 }).message).toMatch(/did you mean fetchMaxWaitMs/);
  });
});
