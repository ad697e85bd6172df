import { describe, expect, it } from 'vitest';
import { checkSubscription, resolveOptions } from '../../../../src/consumer/group/options.js';
import { PollTimer } from '../../../../src/consumer/group/poll-timer.js';
import { SubscriptionResolver } from '../../../../src/consumer/group/subscription-resolver.js';
import { ConfigError } from '../../../../src/options/config-error.js';
import { fakeKafkaWith } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';
import { until } from './group-kit.js';

describe('membership options', () => {
  it('fills Java’s defaults, the rebalance timeout from the max poll interval', () => {
    const o = resolveOptions({ groupId: 'g', maxPollIntervalMs: 10_000 });
    expect(o).toMatchObject({
      protocol: 'classic',
      sessionTimeoutMs: 45_000,
      heartbeatIntervalMs: 3_000,
      rebalanceTimeoutMs: 10_000,
    });
    expect(o.assignors.map((a) => a.name)).toEqual(['range', 'cooperative-sticky']);
  });

  it('refuses what cannot work, naming the option', () => {
    expect(() => resolveOptions({ groupId: '' })).toThrow(ConfigError);
    expect(() => resolveOptions({ groupId: 'g', protocol: 'x' as never })).toThrow(/protocol/);
    expect(() => resolveOptions({ groupId: 'g', heartbeatIntervalMs: 10_000, sessionTimeoutMs: 6_000 })).toThrow(
      /heartbeat/,
    );
    expect(() => resolveOptions({ groupId: 'g', assignors: ['range', 'range'] })).toThrow(/twice/);
    expect(() => resolveOptions({ groupId: 'g', assignors: ['nope' as never] })).toThrow(/assignors/);
    expect(() => checkSubscription({})).toThrow(ConfigError);
    expect(() => checkSubscription({ topics: ['a'], pattern: /a/ })).toThrow(ConfigError);
  });
});

describe('pattern subscriptions', () => {
  it('match whole topic names, never internal topics, however the RegExp was flagged', async () => {
    const cluster = consumerView(fakeKafkaWith({ orders: 1, 'orders-eu': 1, 'old-orders': 1 }));
    const resolver = new SubscriptionResolver({ pattern: /orders.*/g }, (q) => cluster.metadata(q));
    expect(await resolver.topics()).toEqual(['orders', 'orders-eu']);
    expect(await resolver.topics()).toEqual(['orders', 'orders-eu']);
  });
});

describe('PollTimer', () => {
  it('fires once the application has not polled for the interval, but not while a callback runs', async () => {
    let fired = 0;
    const timer = new PollTimer(40, () => fired++);
    timer.start();
    await timer.busy(() => new Promise((r) => setTimeout(r, 80)));
    expect(fired).toBe(0);
    timer.touch();
    await until(() => fired === 1);
    expect(timer.isRunning).toBe(false);
  });
});
