import { describe, expect, it } from 'vitest';
import { type ConsumerEventMap, type EventSink, loggingSink } from '../../../../src/consumer/events.js';
import { resolveConsumerOptions } from '../../../../src/consumer/options.js';
import { FileOffsetStore } from '../../../../src/offsets/file/file-offset-store.js';
import { MemoryOffsetStore } from '../../../../src/offsets/memory-offset-store.js';
import { ConfigError } from '../../../../src/options/config-error.js';

describe('offsetOutOfRange default', () => {
  const file = new FileOffsetStore({ dir: '/nonexistent-never-opened' });

  it("follows the store's outOfRangeDefault: clamp for a FileOffsetStore (the SEO paper's rule)", () => {
    expect(resolveConsumerOptions({ groupId: 'g', offsetStore: file }, 30_000).outOfRange).toBe('clamp');
    expect(
      resolveConsumerOptions({ groupId: 'g', offsetStore: file, autoOffsetReset: 'latest' }, 30_000).outOfRange,
    ).toBe('clamp');
  });

  it('an explicit offsetOutOfRange wins; autoOffsetReset none always fails', () => {
    expect(
      resolveConsumerOptions({ groupId: 'g', offsetStore: file, offsetOutOfRange: 'latest' }, 30_000).outOfRange,
    ).toBe('latest');
    expect(
      resolveConsumerOptions({ groupId: 'g', offsetStore: file, autoOffsetReset: 'none' }, 30_000).outOfRange,
    ).toBe('fail');
  });

  it("without a store default: autoOffsetReset's choice, as Java", () => {
    expect(resolveConsumerOptions({ groupId: 'g', autoOffsetReset: 'earliest' }, 30_000).outOfRange).toBe('earliest');
    expect(
      resolveConsumerOptions(
        { groupId: 'g', offsetStore: new MemoryOffsetStore(), autoOffsetReset: 'earliest' },
        30_000,
      ).outOfRange,
    ).toBe('earliest');
  });

  it('logger must be a function', () => {
    expect(() => resolveConsumerOptions({ logger: 'stderr' as never }, 30_000)).toThrow(ConfigError);
  });
});

describe('loggingSink', () => {
  const reset: ConsumerEventMap['offset-reset'][0] = {
    type: 'offset-corrected',
    groupId: 'g',
    topic: 't',
    partition: 3,
    reason: 'below-earliest',
    stored: 10n,
    corrected: 50n,
    earliest: 50n,
    latest: 100n,
    policy: 'clamp',
    skipped: { from: 10n, to: 50n },
  };

  it('logs each position move with a line naming the range, and still emits it', () => {
    const emitted: unknown[] = [];
    const logged: [string, Record<string, unknown>][] = [];
    const sink: EventSink = (name, payload) => emitted.push([name, payload]);
    const emit = loggingSink(sink, (event, fields) => logged.push([event, fields]));
    emit('offset-reset', reset);
    emit('commit', { groupId: 'g', offsets: [], latencyMs: 1, reason: 'auto' });
    expect(emitted).toHaveLength(2);
    expect(logged).toEqual([
      [
        'consumer:offset-reset',
        expect.objectContaining({
          stored: 10n,
          corrected: 50n,
          message:
            't-3: stored offset 10 is below the log start (log [50, 100)); clamp moves to 50, skipping [10, 50) (40 offsets)',
        }),
      ],
    ]);
  });

  it('a logger that throws does not stop the event', () => {
    const emitted: unknown[] = [];
    const emit = loggingSink(
      (name, payload) => emitted.push([name, payload]),
      () => {
        throw new Error('broken logger');
      },
    );
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    emit('offset-reset', reset);
    expect(emitted).toHaveLength(1);
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        process.off('warning', onWarning);
        expect(warnings.some((m) => m.includes('broken logger'))).toBe(true);
        resolve();
      }),
    );
  });
});
