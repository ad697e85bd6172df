import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { OffsetResetEvent } from '../../../src/consumer/events.js';
import { NoStoredOffsetError, OffsetOutOfRangeError } from '../../../src/offsets/errors.js';
import { deleteRecordsBefore, newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

/**
 * docs/ARCHITECTURE.md, "The offset contract": a position outside the log is corrected by policy and reported with the range it skips or
 * re-reads — never silently. Records 0-49 are deleted (DeleteRecords) below a committed position of 10.
 */
describe.each(targets())('positions outside the log ($label)', (target) => {
  let client: Client;
  let topic: string;
  const tp = () => ({ topic, partition: 0 });

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'out-of-range', 1);
    await produce(client, topic, [0], 100);
    await deleteRecordsBefore(client, topic, 0, 50n);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  /** A group whose committed position (10) now lies below the log start (50). */
  async function groupAt10(): Promise<string> {
    const group = uniqueGroup('oor');
    await client.offsets.commit(group, [{ topic, partition: 0, offset: 10n, leaderEpoch: 0 }]);
    return group;
  }

  function consumerWith(groupId: string, autoOffsetReset: 'earliest' | 'latest' | 'none') {
    const consumer = new Consumer(client, { groupId, autoOffsetReset, autoCommit: false });
    const events: OffsetResetEvent[] = [];
    consumer.on('offset-reset', (e) => events.push(e));
    consumer.assign([tp()]);
    return { consumer, events };
  }

  it('earliest: moves up to the log start and names the deleted range it skips', async () => {
    const { consumer, events } = consumerWith(await groupAt10(), 'earliest');
    try {
      const records = await readRecords(consumer, 5);
      expect(records.map((r) => r.offset)).toEqual([50n, 51n, 52n, 53n, 54n]);
      expect(events).toEqual([
        expect.objectContaining({
          type: 'offset-corrected',
          topic,
          partition: 0,
          reason: 'below-earliest',
          stored: 10n,
          corrected: 50n,
          policy: 'earliest',
          skipped: { from: 10n, to: 50n },
        }),
      ]);
      expect(consumer.metrics().resets).toBe(1);
    } finally {
      await consumer.close();
    }
  });

  it('latest: moves to the log end and names everything it skips', async () => {
    const { consumer, events } = consumerWith(await groupAt10(), 'latest');
    try {
      expect(await consumer.position(tp())).toBe(100n);
      expect(events).toEqual([
        expect.objectContaining({
          reason: 'below-earliest',
          stored: 10n,
          corrected: 100n,
          skipped: { from: 10n, to: 100n },
        }),
      ]);
    } finally {
      await consumer.close();
    }
  });

  it('none: stops with OffsetOutOfRangeError naming the position and the log range, until a seek', async () => {
    const { consumer, events } = consumerWith(await groupAt10(), 'none');
    try {
      const err = await readRecords(consumer, 1).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OffsetOutOfRangeError);
      expect((err as OffsetOutOfRangeError).partitions).toEqual([
        { topic, partition: 0, stored: 10n, earliest: 50n, latest: 100n },
      ]);
      await expect(consumer.position(tp())).rejects.toBeInstanceOf(OffsetOutOfRangeError);
      expect(events).toEqual([]);
      consumer.seek(tp(), 70n);
      expect((await readRecords(consumer, 1))[0].offset).toBe(70n);
    } finally {
      await consumer.close();
    }
  });

  it('none without any stored position: NoStoredOffsetError', async () => {
    const { consumer } = consumerWith(uniqueGroup('oor-empty'), 'none');
    try {
      await expect(readRecords(consumer, 1)).rejects.toBeInstanceOf(NoStoredOffsetError);
    } finally {
      await consumer.close();
    }
  });

  it('out of range while fetching: a reset event names the range deleted under the consumer', async () => {
    const own = await newTopic(client, 'oor-live', 1);
    await produce(client, own, [0], 100);
    const consumer = new Consumer(client, { autoOffsetReset: 'earliest' });
    const events: OffsetResetEvent[] = [];
    consumer.on('offset-reset', (e) => events.push(e));
    consumer.assign([{ topic: own, partition: 0 }]);
    try {
      expect((await readRecords(consumer, 20)).at(-1)?.offset).toBe(19n);
      await deleteRecordsBefore(client, own, 0, 60n);
      // Whatever was fetched ahead is dropped, so the next fetch asks for offset 20, which is gone.
      consumer.seek({ topic: own, partition: 0 }, 20n);
      expect((await readRecords(consumer, 1))[0].offset).toBe(60n);
      expect(events.at(-1)).toEqual(
        expect.objectContaining({
          reason: 'below-earliest',
          stored: 20n,
          corrected: 60n,
          skipped: { from: 20n, to: 60n },
        }),
      );
    } finally {
      await consumer.close();
    }
  });

  it('out of range while fetching with none: OffsetOutOfRangeError', async () => {
    const own = await newTopic(client, 'oor-live-none', 1);
    await produce(client, own, [0], 30);
    const consumer = new Consumer(client, { autoOffsetReset: 'none', offsetOutOfRange: 'fail' });
    consumer.assign([{ topic: own, partition: 0 }]);
    try {
      consumer.seek({ topic: own, partition: 0 }, 5n);
      expect((await readRecords(consumer, 1))[0].offset).toBe(5n);
      await deleteRecordsBefore(client, own, 0, 20n);
      consumer.seek({ topic: own, partition: 0 }, 10n);
      const err = await readRecords(consumer, 1).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OffsetOutOfRangeError);
      expect((err as OffsetOutOfRangeError).partitions[0]).toEqual({
        topic: own,
        partition: 0,
        stored: 10n,
        earliest: 20n,
        latest: 30n,
      });
    } finally {
      await consumer.close();
    }
  });
});
