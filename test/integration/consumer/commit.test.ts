import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { CommitEvent } from '../../../src/consumer/events.js';
import { BackwardCommitError } from '../../../src/offsets/errors.js';
import { FileOffsetStore } from '../../../src/offsets/file/file-offset-store.js';
import { newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

describe.each(targets())('the commit engine against the broker ($label)', (target) => {
  let client: Client;
  let topic: string;
  const tp = () => ({ topic, partition: 0 });

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'commits', 1);
    await produce(client, topic, [0], 100, { batchSize: 10 });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  function manual(groupId: string): { consumer: Consumer; commits: CommitEvent[] } {
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest', autoCommit: false });
    const commits: CommitEvent[] = [];
    consumer.on('commit', (e) => commits.push(e));
    consumer.assign([tp()]);
    return { consumer, commits };
  }

  async function committedOffset(groupId: string): Promise<bigint | null> {
    return (await client.offsets.committed(groupId, [tp()]))[0].offset;
  }

  it('commit() stores what was processed, with its leader epoch; commitAsync() follows in order', async () => {
    const groupId = uniqueGroup('manual');
    const { consumer, commits } = manual(groupId);
    try {
      await readRecords(consumer, 10);
      await consumer.commit();
      expect(await client.offsets.committed(groupId, [tp()])).toEqual([
        expect.objectContaining({ offset: 10n, leaderEpoch: 0 }),
      ]);
      await readRecords(consumer, 5);
      consumer.commitAsync();
      await readRecords(consumer, 5);
      consumer.commitAsync();
      await consumer.commit();
      expect(await committedOffset(groupId)).toBe(20n);
      const offsets = commits.map((c) => c.offsets[0].offset);
      expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : 1)));
      expect(consumer.metrics().commits).toBe(commits.length);
      expect(consumer.metrics().commitLatency.count).toBe(commits.length);
    } finally {
      await consumer.close();
    }
  });

  it('commit({ signal }) aborted before it is sent is dropped; one aborted after reports its outcome as an event', async () => {
    const groupId = uniqueGroup('abort');
    const { consumer, commits } = manual(groupId);
    try {
      await readRecords(consumer, 30);
      // The first goes out at once; the second waits behind it and is aborted before it is sent.
      const inFlight = consumer.commit({ offsets: [{ ...tp(), offset: 5n }] });
      const queued = new AbortController();
      const dropped = consumer.commit({ offsets: [{ ...tp(), offset: 8n }], signal: queued.signal });
      queued.abort(new Error('not wanted any more'));
      await expect(dropped).rejects.toThrow('not wanted any more');
      await inFlight;
      await sleep(500);
      expect(await committedOffset(groupId)).toBe(5n);
      expect(commits.map((c) => c.offsets[0].offset)).toEqual([5n]);

      // Aborted once sent: the call rejects now, and the commit's own outcome follows as an event.
      const late = new AbortController();
      const sent = consumer.commit({ offsets: [{ ...tp(), offset: 12n }], signal: late.signal });
      late.abort(new Error('too late'));
      await expect(sent).rejects.toThrow('too late');
      const deadline = Date.now() + 10_000;
      while (commits.length < 2 && Date.now() < deadline) await sleep(20);
      expect(commits.map((c) => c.offsets[0].offset)).toEqual([5n, 12n]);
      expect(await committedOffset(groupId)).toBe(12n);
    } finally {
      await consumer.close();
    }
  });

  it('never moves a committed offset backwards unless the application sought', async () => {
    const groupId = uniqueGroup('backward');
    const { consumer } = manual(groupId);
    try {
      await readRecords(consumer, 30);
      await consumer.commit();
      await expect(consumer.commit({ offsets: [{ ...tp(), offset: 12n }] })).rejects.toBeInstanceOf(
        BackwardCommitError,
      );
      expect(await committedOffset(groupId)).toBe(30n);
      consumer.seek(tp(), 12n);
      await consumer.commit();
      expect(await committedOffset(groupId)).toBe(12n);
    } finally {
      await consumer.close();
    }
  });

  it('auto-commit commits processed records on its interval, and close commits the rest', async () => {
    const groupId = uniqueGroup('auto');
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest', autoCommitIntervalMs: 30 });
    const commits: CommitEvent[] = [];
    consumer.on('commit', (e) => commits.push(e));
    consumer.assign([tp()]);
    let n = 0;
    for await (const record of consumer.records()) {
      if (++n === 25) {
        await sleep(150);
        // Only the 24 records whose loop bodies returned count: this one is still being handled.
        expect(commits.at(-1)).toMatchObject({ reason: 'auto', offsets: [{ offset: record.offset }] });
        consumer.ack(record);
        break;
      }
    }
    await consumer.close();
    expect(commits.at(-1)).toMatchObject({ reason: 'close', offsets: [{ offset: 25n }] });
    expect(await committedOffset(groupId)).toBe(25n);
  });

  it('commits to a FileOffsetStore instead of the broker when given one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-consumer-store-'));
    const groupId = uniqueGroup('file');
    try {
      const store = new FileOffsetStore({ dir });
      const first = new Consumer(client, { groupId, offsetStore: store, autoOffsetReset: 'earliest' });
      first.assign([tp()]);
      await readRecords(first, 40);
      await first.close();
      await store.close();
      // Nothing went to the broker.
      expect(await committedOffset(groupId)).toBeNull();

      const reopened = new FileOffsetStore({ dir });
      const second = new Consumer(client, { groupId, offsetStore: reopened, autoOffsetReset: 'earliest' });
      second.assign([tp()]);
      try {
        expect(await second.position(tp())).toBe(40n);
        expect((await second.committed([tp()]))[0]).toMatchObject({ offset: 40n, leaderEpoch: 0 });
      } finally {
        await second.close();
        await reopened.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
