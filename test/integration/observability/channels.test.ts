/**
 * The tracing channels against the real brokers: every request of a produce → consume round trip is published
 * on `tidemark:request` with its broker, API, version, correlation id, bytes and duration; every send on
 * `tidemark:producer:send` with where it landed; every delivered batch on `tidemark:consumer:batch`.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import type { ConsumerBatchContext, ProducerSendContext, RequestContext } from '../../../src/observability/channels.js';
import { newTopic, targets } from '../consumer/setup.js';

interface Recorded {
  requests: RequestContext[];
  requestErrors: RequestContext[];
  sendsStarted: ProducerSendContext[];
  sendsDone: ProducerSendContext[];
  batchesStarted: ConsumerBatchContext[];
  batchesDone: ConsumerBatchContext[];
}

const unsubscribers: (() => void)[] = [];
afterEach(() => {
  for (const off of unsubscribers.splice(0)) off();
});

function record(): Recorded {
  const r: Recorded = {
    requests: [],
    requestErrors: [],
    sendsStarted: [],
    sendsDone: [],
    batchesStarted: [],
    batchesDone: [],
  };
  const subscribe = <C extends object>(
    name: string,
    handlers: Parameters<ReturnType<typeof tracingChannel<unknown, C>>['subscribe']>[0],
  ) => {
    const channel = tracingChannel<unknown, C>(name);
    channel.subscribe(handlers);
    unsubscribers.push(() => channel.unsubscribe(handlers));
  };
  const none = () => {};
  subscribe<RequestContext>('tidemark:request', {
    start: none,
    end: none,
    asyncStart: none,
    // asyncEnd follows a failure too; failures are kept apart.
    asyncEnd: (c) => {
      if (c.error === undefined) r.requests.push(c);
    },
    error: (c) => r.requestErrors.push(c),
  });
  subscribe<ProducerSendContext>('tidemark:producer:send', {
    start: (c) => r.sendsStarted.push(c),
    end: none,
    asyncStart: none,
    asyncEnd: (c) => r.sendsDone.push(c),
    error: none,
  });
  subscribe<ConsumerBatchContext>('tidemark:consumer:batch', {
    start: (c) => r.batchesStarted.push(c),
    end: (c) => r.batchesDone.push(c),
    asyncStart: none,
    asyncEnd: none,
    error: none,
  });
  return r;
}

describe.each(targets())('tracing channels ($label)', (target) => {
  it('publishes every request, send and batch of a produce → consume round trip', async () => {
    const client = new Client({ bootstrap: target.bootstrap, clientId: 'obs-channels', requestTimeoutMs: 15_000 });
    try {
      const topic = await newTopic(client, 'obs-channels');
      const seen = record();
      const producer = client.producer({ lingerMs: 0 });
      const sent = [];
      for (let i = 0; i < 3; i++) sent.push(await producer.send({ topic, key: `k${i}`, value: `v${i}` }));
      await producer.close();

      expect(seen.sendsStarted.map((c) => c.topic)).toEqual([topic, topic, topic]);
      expect(seen.sendsDone.map((c) => c.result?.offset)).toEqual([0n, 1n, 2n]);
      expect(seen.sendsDone.every((c) => c.clientId === 'obs-channels')).toBe(true);

      const consumer = client.consumer({ autoOffsetReset: 'earliest' });
      consumer.assign([{ topic, partition: 0 }]);
      let read = 0;
      for await (const batch of consumer) {
        read += batch.records.length;
        if (read >= 3) break;
      }
      await consumer.close();

      const produce = seen.requests.filter((c) => c.apiName === 'Produce');
      expect(produce).toHaveLength(3);
      const fetches = seen.requests.filter((c) => c.apiName === 'Fetch');
      expect(fetches.length).toBeGreaterThan(0);
      const md = await client.metadata({ topics: [topic] });
      const leader = md.brokers.get(md.topics.get(topic)?.partitions[0].leader ?? -1);
      for (const c of [...produce, ...fetches]) {
        expect(c.clientId).toBe('obs-channels');
        // A connection first opened to the bootstrap address has no node id; its address is the leader's.
        if (c.brokerId !== undefined) expect(c.brokerId).toBe(leader?.nodeId);
        expect(c.address).toBe(`${leader?.host}:${leader?.port}`);
        expect(c.version).toBeGreaterThanOrEqual(0);
        expect(c.correlationId).toBeGreaterThanOrEqual(0);
        expect(c.requestBytes).toBeGreaterThan(20);
        expect(c.responseBytes, `${c.apiName} v${c.version}`).toBeGreaterThan(8);
        expect(c.durationMs).toBeGreaterThanOrEqual(0);
        expect(c.error).toBeUndefined();
      }
      // Correlation ids of one connection are distinct.
      const produceIds = produce.map((c) => `${c.address}/${c.correlationId}`);
      expect(new Set(produceIds).size).toBe(3);
      expect(seen.requests.some((c) => c.apiName === 'Metadata')).toBe(true);
      // The only failures: a fetch in flight when the consumer closed, aborted by the close.
      for (const c of seen.requestErrors) {
        expect([c.apiName, (c.error as Error).name]).toEqual(['Fetch', 'RequestAbortedError']);
      }

      expect(seen.batchesStarted.length).toBeGreaterThan(0);
      const first = seen.batchesStarted[0];
      expect([first.topic, first.partition, first.firstOffset, first.groupId]).toEqual([topic, 0, 0n, undefined]);
      expect(seen.batchesStarted.reduce((n, c) => n + c.records.length, 0)).toBe(3);
      // Every batch delivered was ended; the last was left by break, so it is not processed.
      expect(seen.batchesDone).toHaveLength(seen.batchesStarted.length);
      expect(seen.batchesDone.at(-1)?.processed).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('publishes a failed request on the error channel with its error and duration', async () => {
    const client = new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
    try {
      await client.metadata();
      const seen = record();
      const controller = new AbortController();
      controller.abort(new Error('given up'));
      const connection = await client.cluster.anyConnection();
      const { Metadata } = await import('../../../protocol/index.js');
      await expect(connection.request(Metadata, { topics: [] }, { signal: controller.signal })).rejects.toThrow();
      expect(seen.requestErrors).toHaveLength(1);
      expect(seen.requestErrors[0].apiName).toBe('Metadata');
      expect(seen.requestErrors[0].error).toBeInstanceOf(Error);
      expect(seen.requestErrors[0].durationMs).toBeGreaterThanOrEqual(0);
    } finally {
      await client.close();
    }
  });
});
