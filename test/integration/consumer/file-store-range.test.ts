import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { OffsetResetEvent } from '../../../src/consumer/events.js';
import type { ConsumerOptions } from '../../../src/consumer/options.js';
import { CorruptOffsetFileError, OffsetOutOfRangeError } from '../../../src/offsets/errors.js';
import { FileOffsetStore, type FileOffsetStoreEvent } from '../../../src/offsets/file/file-offset-store.js';
import { offsetFilePaths } from '../../../src/offsets/file/path-encoding.js';
import { deleteRecordsBefore, newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

/**
 * The SEO paper's start-up check with the local file store, end to end: positions loaded from a gtoffset file
 * are compared with the log's earliest and latest offsets (ListOffsets) and corrected by policy (default
 * `clamp` for FileOffsetStore), each correction an `offset-reset` event and a log line naming the range
 * skipped or re-read. The topic holds offsets 0-99 with 0-49 deleted (DeleteRecords): the log is [50, 100).
 */
describe.each(targets())('file store positions against the log range ($label)', (target) => {
  let client: Client;
  let topic: string;
  let dir: string;
  const tp = () => ({ topic, partition: 0 });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tidemark-file-range-'));
    client = newClient(target);
    topic = await newTopic(client, 'file-range', 1);
    await produce(client, topic, [0], 100, { batchSize: 10 });
    await deleteRecordsBefore(client, topic, 0, 50n);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** A new group whose gtoffset holds `offset` for partition 0, written through the store itself. */
  async function groupStoredAt(offset: bigint, leaderEpoch?: number): Promise<string> {
    const groupId = uniqueGroup('file-range');
    const store = new FileOffsetStore({ dir });
    await store.commit(groupId, [{ topic, partition: 0, offset, leaderEpoch }]);
    await store.close();
    return groupId;
  }

  interface Run {
    consumer: Consumer;
    store: FileOffsetStore;
    events: OffsetResetEvent[];
    logs: { event: string; fields: Record<string, unknown> }[];
    storeEvents: FileOffsetStoreEvent[];
  }
  const open: Run[] = [];
  afterEach(async () => {
    for (const run of open.splice(0)) {
      await run.consumer.close().catch(() => {});
      await run.store.close();
    }
  });

  function consume(groupId: string, options: ConsumerOptions = {}): Run {
    const storeEvents: FileOffsetStoreEvent[] = [];
    const store = new FileOffsetStore({ dir, onEvent: (e) => storeEvents.push(e) });
    const logs: Run['logs'] = [];
    const consumer = new Consumer(client, {
      groupId,
      offsetStore: store,
      autoOffsetReset: 'earliest',
      logger: (event, fields) => logs.push({ event, fields }),
      ...options,
    });
    const events: OffsetResetEvent[] = [];
    consumer.on('offset-reset', (e) => events.push(e));
    consumer.assign([tp()]);
    const run = { consumer, store, events, logs, storeEvents };
    open.push(run);
    return run;
  }

  it('clamp (the default): a stored offset below the log start starts at earliest, naming [stored, earliest) as skipped', async () => {
    const groupId = await groupStoredAt(10n, 0);
    const { consumer, store, events, logs } = consume(groupId);
    const records = await readRecords(consumer, 5);
    expect(records.map((r) => r.offset)).toEqual([50n, 51n, 52n, 53n, 54n]);
    expect(events).toEqual([
      {
        type: 'offset-corrected',
        groupId,
        topic,
        partition: 0,
        reason: 'below-earliest',
        stored: 10n,
        corrected: 50n,
        earliest: 50n,
        latest: 100n,
        policy: 'clamp',
        skipped: { from: 10n, to: 50n },
      },
    ]);
    expect(logs.map((l) => l.event)).toEqual(['consumer:offset-reset']);
    expect(logs[0].fields.message).toBe(
      `${topic}-0: stored offset 10 is below the log start (log [50, 100)); clamp moves to 50, skipping [10, 50) (40 offsets)`,
    );
    // The corrected position is what gets committed next: the file moves on from 55, not from 10.
    await consumer.close();
    await store.close();
    const check = new FileOffsetStore({ dir });
    expect((await check.load(groupId, [tp()])).get(topic)?.get(0)?.offset).toBe(55n);
    await check.close();
  });

  it('clamp: a stored offset past the log end is lowered to latest, naming [latest, stored) as re-read', async () => {
    const groupId = await groupStoredAt(500n);
    const { consumer, events, logs } = consume(groupId);
    expect(await consumer.position(tp())).toBe(100n);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'offset-corrected',
        reason: 'above-latest',
        stored: 500n,
        corrected: 100n,
        policy: 'clamp',
        reread: { from: 100n, to: 500n },
      }),
    ]);
    expect(events[0].skipped).toBeUndefined();
    expect(logs[0].fields.message).toMatch(/stored offset 500 is past the log end .*re-reading \[100, 500\)/);
  });

  it('a stored offset past the log end with its leader epoch (as the consumer commits): lowered by KIP-320, re-read range named', async () => {
    // OffsetForLeaderEpoch answers first when the stored offset has an epoch: epoch 0 ends at 100, below 500.
    const groupId = await groupStoredAt(500n, 0);
    const { consumer, logs } = consume(groupId);
    const truncations: unknown[] = [];
    consumer.on('truncation', (e) => truncations.push(e));
    expect(await consumer.position(tp())).toBe(100n);
    expect(truncations).toEqual([
      expect.objectContaining({
        position: { offset: 500n, leaderEpoch: 0 },
        resumedAt: { offset: 100n, leaderEpoch: 0 },
        reread: { from: 100n, to: 500n },
      }),
    ]);
    expect(logs.map((l) => l.event)).toEqual(['consumer:truncation']);
    expect(logs[0].fields.message).toMatch(/offset 500 .*resuming at 100, re-reading \[100, 500\)/);
  });

  it('policy earliest: a stored offset past the log end goes back to the log start', async () => {
    const groupId = await groupStoredAt(500n);
    const { consumer, events } = consume(groupId, { offsetOutOfRange: 'earliest' });
    expect((await readRecords(consumer, 1))[0].offset).toBe(50n);
    expect(events).toEqual([
      expect.objectContaining({
        reason: 'above-latest',
        stored: 500n,
        corrected: 50n,
        policy: 'earliest',
        reread: { from: 50n, to: 500n },
      }),
    ]);
  });

  it('policy latest: a stored offset below the log start jumps to the end, naming everything skipped', async () => {
    const groupId = await groupStoredAt(10n, 0);
    const { consumer, events } = consume(groupId, { offsetOutOfRange: 'latest' });
    expect(await consumer.position(tp())).toBe(100n);
    expect(events).toEqual([
      expect.objectContaining({
        reason: 'below-earliest',
        stored: 10n,
        corrected: 100n,
        policy: 'latest',
        skipped: { from: 10n, to: 100n },
      }),
    ]);
  });

  it('policy fail: OffsetOutOfRangeError naming the partition and the log range; nothing moves', async () => {
    const groupId = await groupStoredAt(10n, 0);
    const { consumer, events } = consume(groupId, { offsetOutOfRange: 'fail' });
    const err = await readRecords(consumer, 1, 20_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OffsetOutOfRangeError);
    expect((err as OffsetOutOfRangeError).partitions).toEqual([
      { topic, partition: 0, stored: 10n, earliest: 50n, latest: 100n },
    ]);
    expect((err as Error).message).toContain(`${topic}-0: 10 not in [50, 100]`);
    expect(events).toEqual([]);
  });

  it('a stored offset inside the log is used as it is, with no event', async () => {
    const groupId = await groupStoredAt(70n, 0);
    const { consumer, events, logs } = consume(groupId);
    expect((await readRecords(consumer, 1))[0].offset).toBe(70n);
    expect(events).toEqual([]);
    expect(logs).toEqual([]);
  });

  it('no gtoffset file: autoOffsetReset earliest starts at the log start, reported as a reset', async () => {
    const groupId = uniqueGroup('file-range-none');
    const { consumer, events } = consume(groupId);
    expect((await readRecords(consumer, 1))[0].offset).toBe(50n);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'offset-reset',
        reason: 'no-stored-offset',
        corrected: 50n,
        policy: 'earliest',
      }),
    ]);
  });

  it('a corrupt gtoffset with a valid backup: starts from the backup, with a backup-restored event', async () => {
    const groupId = uniqueGroup('file-range-backup');
    const writer = new FileOffsetStore({ dir });
    await writer.commit(groupId, [{ topic, partition: 0, offset: 60n, leaderEpoch: 0 }]);
    await writer.commit(groupId, [{ topic, partition: 0, offset: 80n, leaderEpoch: 0 }]); // 60 is now the backup
    await writer.close();
    const { file } = offsetFilePaths(dir, groupId, topic);
    await writeFile(file, 'not a gtoffset file\n');
    const { consumer, events, storeEvents } = consume(groupId);
    expect((await readRecords(consumer, 1))[0].offset).toBe(60n);
    expect(events).toEqual([]);
    expect(storeEvents).toEqual([expect.objectContaining({ type: 'backup-restored', group: groupId, topic, file })]);
  });

  it('a corrupt gtoffset and no usable backup: CorruptOffsetFileError from the consumer, never a silent reset', async () => {
    const groupId = uniqueGroup('file-range-corrupt');
    const writer = new FileOffsetStore({ dir });
    await writer.commit(groupId, [{ topic, partition: 0, offset: 60n, leaderEpoch: 0 }]);
    await writer.close();
    const { file, backup } = offsetFilePaths(dir, groupId, topic);
    await writeFile(file, 'not a gtoffset file\n');
    await rm(backup, { force: true });
    const { consumer, events } = consume(groupId);
    const err = await readRecords(consumer, 1, 20_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptOffsetFileError);
    expect((err as CorruptOffsetFileError).file).toBe(file);
    await expect(consumer.position(tp())).rejects.toBeInstanceOf(CorruptOffsetFileError);
    expect(events).toEqual([]);
  });
});
