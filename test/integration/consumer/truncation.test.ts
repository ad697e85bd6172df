import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { LogTruncationError } from '../../../src/consumer/errors.js';
import type { OffsetResetEvent, TruncationEvent } from '../../../src/consumer/events.js';
import { newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

/**
 * KIP-320 on a single test broker: the log holds records 0-4, all written in leader epoch 0. A committed
 * position from another history of the log is fabricated — offset 9 read in epoch 0 (past where epoch 0 ends),
 * or a leader epoch the log has never had — and the consumer must find out from OffsetForLeaderEpoch before it
 * reads a record.
 */
describe.each(targets())('leader-epoch truncation detection ($label)', (target) => {
  let client: Client;
  let topic: string;
  const tp = () => ({ topic, partition: 0 });

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'truncation', 1);
    await produce(client, topic, [0], 5);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  async function groupAt(offset: bigint, leaderEpoch: number): Promise<string> {
    const group = uniqueGroup('trunc');
    await client.offsets.commit(group, [{ topic, partition: 0, offset, leaderEpoch }]);
    return group;
  }

  function consumerIn(groupId: string, autoOffsetReset: 'earliest' | 'none') {
    const consumer = new Consumer(client, { groupId, autoOffsetReset, autoCommit: false });
    const truncations: TruncationEvent[] = [];
    const resets: OffsetResetEvent[] = [];
    consumer.on('truncation', (e) => truncations.push(e));
    consumer.on('offset-reset', (e) => resets.push(e));
    consumer.assign([tp()]);
    return { consumer, truncations, resets };
  }

  it('a position past the end of its epoch: detected, and reading resumes where the epoch ends', async () => {
    const { consumer, truncations } = consumerIn(await groupAt(9n, 0), 'earliest');
    try {
      expect(await consumer.position(tp())).toBe(5n);
      expect(truncations).toEqual([
        {
          groupId: consumer.groupId,
          topic,
          partition: 0,
          position: { offset: 9n, leaderEpoch: 0 },
          resumedAt: { offset: 5n, leaderEpoch: 0 },
          // Offsets 5-8 were behind the consumer; the records the log writes there now will be read.
          reread: { from: 5n, to: 9n },
          detectedBy: 'offset-for-leader-epoch',
        },
      ]);
    } finally {
      await consumer.close();
    }
  });

  it('with auto offset reset none: LogTruncationError naming where the log diverged', async () => {
    const { consumer } = consumerIn(await groupAt(9n, 0), 'none');
    try {
      const err = await consumer.position(tp()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LogTruncationError);
      expect(err).toMatchObject({
        position: { offset: 9n, leaderEpoch: 0 },
        divergedAt: 5n,
        detectedBy: 'offset-for-leader-epoch',
      });
    } finally {
      await consumer.close();
    }
  });

  it('a leader epoch the log never had: reported, and reset by policy', async () => {
    const { consumer, truncations } = consumerIn(await groupAt(3n, 99), 'earliest');
    try {
      expect(await consumer.position(tp())).toBe(0n);
      expect(truncations).toEqual([
        expect.objectContaining({ position: { offset: 3n, leaderEpoch: 99 }, resumedAt: undefined }),
      ]);
    } finally {
      await consumer.close();
    }
  });

  it('a position that is still in its epoch is kept', async () => {
    const { consumer, truncations, resets } = consumerIn(await groupAt(3n, 0), 'earliest');
    try {
      expect(await consumer.position(tp())).toBe(3n);
      expect((await readRecords(consumer, 1))[0].offset).toBe(3n);
      expect(truncations).toEqual([]);
      expect(resets).toEqual([]);
    } finally {
      await consumer.close();
    }
  });

  it('a seek with a leader epoch is validated the same way', async () => {
    const consumer = new Consumer(client, { autoOffsetReset: 'earliest' });
    const truncations: TruncationEvent[] = [];
    consumer.on('truncation', (e) => truncations.push(e));
    consumer.assign([tp()]);
    try {
      consumer.seek(tp(), { offset: 40n, leaderEpoch: 0 });
      const end = await consumer.position(tp());
      expect(truncations[0]).toMatchObject({ position: { offset: 40n, leaderEpoch: 0 }, resumedAt: { offset: end } });
    } finally {
      await consumer.close();
    }
  });
});
