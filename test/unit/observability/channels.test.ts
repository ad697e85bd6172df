/**
 * The tracing channels' publishers: with nobody subscribed nothing is built (the record goes through as the
 * same object, no batch context, no request context); with a subscriber, headers it adds reach the record sent
 * and never the application's object.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TRACING_CHANNELS, traced } from '../../../src/observability/channels.js';
import { batchDelivered, batchDone, batchRequested } from '../../../src/observability/consumer-batch.js';
import { traceSend } from '../../../src/observability/producer-send.js';
import { requestObserved } from '../../../src/observability/requests.js';

const none = () => {};
const offs: (() => void)[] = [];
afterEach(() => {
  for (const off of offs.splice(0)) off();
});

function subscribe<C extends object>(
  channel: typeof TRACING_CHANNELS.producerSend | typeof TRACING_CHANNELS.consumerBatch,
  start: (c: C) => void,
  end: (c: C) => void = none,
) {
  const handlers = { start, end, asyncStart: none, asyncEnd: none, error: none } as never;
  channel.subscribe(handlers);
  offs.push(() => channel.unsubscribe(handlers));
}

const result = { topic: 't', partition: 0, offset: 5n, timestamp: 0 };

describe('with nobody subscribed', () => {
  it('builds nothing', async () => {
    expect(traced(TRACING_CHANNELS.request)).toBe(false);
    expect(requestObserved(undefined)).toBe(false);
    const record = { topic: 't', value: 'v' };
    let given: unknown;
    await traceSend(record, 'c', async (r) => {
      given = r;
      return result;
    });
    expect(given).toBe(record);
    expect(batchRequested()).toBe(0);
    const records = [{ offset: 0n, key: null, headers: [] }];
    expect(
      batchDelivered({ clientId: 'c', groupId: undefined }, { topic: 't', partition: 0, records }, 0),
    ).toBeUndefined();
  });
});

describe('with a subscriber', () => {
  it('sends the headers a start subscriber adds after the record own ones, leaving the record as it was', async () => {
    subscribe<{ headers: Record<string, string> }>(TRACING_CHANNELS.producerSend, (c) => {
      c.headers.traceparent = '00-abc';
    });
    for (const headers of [{ own: 'x' }, [{ key: 'own', value: 'x' }]]) {
      const record = { topic: 't', headers };
      let given: { headers?: unknown } | undefined;
      const got = await traceSend(record, 'c', async (r) => {
        given = r;
        return result;
      });
      expect(got).toBe(result);
      expect(given?.headers).toEqual([
        { key: 'own', value: 'x' },
        { key: 'traceparent', value: '00-abc' },
      ]);
      expect(record.headers).toBe(headers);
      expect(JSON.stringify(record.headers)).not.toContain('traceparent');
    }
  });

  it('publishes a batch at delivery and its end with whether it was processed', () => {
    const seen: string[] = [];
    subscribe<{ firstOffset: bigint; lastOffset: bigint; processed?: boolean }>(
      TRACING_CHANNELS.consumerBatch,
      (c) => seen.push(`start ${c.firstOffset}-${c.lastOffset}`),
      (c) => seen.push(`end ${c.processed}`),
    );
    const at = batchRequested();
    expect(at).toBeGreaterThan(0);
    const records = [0n, 1n, 2n].map((offset) => ({ offset, key: null, headers: [] }));
    const ctx = batchDelivered({ clientId: 'c', groupId: 'g' }, { topic: 't', partition: 3, records }, at);
    expect(ctx?.deliveredAt).toBeGreaterThanOrEqual(at);
    batchDone(ctx, false);
    expect(seen).toEqual(['start 0-2', 'end false']);
  });
});
