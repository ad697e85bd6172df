import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fetch } from '../../../protocol/apis/fetch.js';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { FetchEvent } from '../../../src/consumer/events.js';
import { newClient, newTopic, produce, readRecords, recordValue, targets } from './setup.js';

describe.each(targets())('every Fetch version the broker accepts ($label)', (target) => {
  let client: Client;
  let topic: string;
  let versions: number[];

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'fetch-versions', 2);
    await produce(client, topic, [0, 1], 30, { batchSize: 7 });
    const range = (await client.cluster.anyConnection()).apiVersions!.range(Fetch.key)!;
    versions = [];
    for (let v = range.min; v <= range.max; v++) versions.push(v);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('reads the same records, in order, at each version (from a seek into the middle of a batch)', async () => {
    expect(versions.length).toBeGreaterThan(10);
    for (const version of versions) {
      const consumer = new Consumer(client, { autoOffsetReset: 'earliest', fetchVersion: version });
      const fetches: FetchEvent[] = [];
      consumer.on('fetch', (e) => fetches.push(e));
      consumer.assign([{ topic, partition: 1 }]);
      try {
        consumer.seek({ topic, partition: 1 }, 10n);
        const records = await readRecords(consumer, 20);
        expect({ version, offsets: records.map((r) => Number(r.offset)) }).toEqual({
          version,
          offsets: [...Array(20).keys()].map((i) => i + 10),
        });
        expect(records.every((r, i) => r.value!.equals(recordValue(1, i + 10)))).toBe(true);
        expect(fetches.every((f) => f.version === version)).toBe(true);
        // Legacy message formats (v0-3 down-converts to magic 0/1) carry no leader epoch.
        expect(records[0].leaderEpoch).toBe(version >= 4 ? 0 : -1);
      } finally {
        await consumer.close();
      }
    }
  }, 120_000);

  it('keeps an incremental fetch session (v7+): once caught up, requests name no partitions', async () => {
    const consumer = new Consumer(client, { autoOffsetReset: 'earliest', fetchMaxWaitMs: 50 });
    const fetches: FetchEvent[] = [];
    consumer.on('fetch', (e) => fetches.push(e));
    consumer.assign([
      { topic, partition: 0 },
      { topic, partition: 1 },
    ]);
    try {
      await readRecords(consumer, 60);
      // A few idle fetches while caught up (nothing more to read: the wait times out).
      await readRecords(consumer, 1, 400).catch(() => {});
      const last = fetches.at(-1)!;
      expect(last.sessionId).not.toBe(0);
      expect(last.partitionsSent).toBe(0);
      expect(fetches[0].partitionsSent).toBe(2);
    } finally {
      await consumer.close();
    }
  });
});
