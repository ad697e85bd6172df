import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { newClient, newTopic, produce, targets, uniqueGroup } from './setup.js';

/**
 * `ackMode: 'explicit'` against the real broker: moving on acknowledges nothing, what is not acknowledged is
 * read again from its first unacknowledged record, acknowledgements in any order never move the mark back,
 * and commits (on close too) store only acknowledged offsets.
 */
describe.each(targets())('explicit acknowledgement ($label)', (target) => {
  let client: Client;
  let topic: string;
  const tp = () => ({ topic, partition: 0 });

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'explicit-ack', 1);
    await produce(client, topic, [0], 20, { batchSize: 20 });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  const committedOffset = async (groupId: string) => (await client.offsets.committed(groupId, [tp()]))[0]?.offset;

  it('re-reads from the first unacknowledged record of a batch moved past', { timeout: 60_000 }, async () => {
    const groupId = uniqueGroup('explicit-ack');
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest', ackMode: 'explicit' });
    consumer.assign([tp()]);
    const firsts: bigint[] = [];
    for await (const batch of consumer) {
      firsts.push(batch.records[0].offset);
      if (firsts.length === 1) {
        // Acknowledge offsets 0..6 out of order (6, then 2): the mark ends after 6 and does not move back.
        batch.ack(batch.records[6]);
        batch.ack(batch.records[2]);
        continue;
      }
      for (const r of batch.records) if (r.offset < 12n) batch.ack(r);
      if (batch.records.at(-1)!.offset < 12n) continue;
      break;
    }
    expect(firsts[0]).toBe(0n);
    expect(firsts[1]).toBe(7n);
    await consumer.commit();
    expect(await committedOffset(groupId)).toBe(12n);
    await consumer.close();
    // Nothing past 12 was acknowledged, so nothing past it is committed on close either.
    expect(await committedOffset(groupId)).toBe(12n);
  });

  it('the per-record iterator marks nothing itself', { timeout: 60_000 }, async () => {
    const groupId = uniqueGroup('explicit-ack-records');
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest', ackMode: 'explicit' });
    consumer.assign([tp()]);
    const seen: bigint[] = [];
    for await (const record of consumer.records()) {
      seen.push(record.offset);
      if (record.offset === 3n) consumer.ack(record);
      if (seen.length === 8) break;
    }
    // Offsets 0..7 read once; everything after 3 moved past unacknowledged.
    expect(seen).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
    await consumer.close();
    expect(await committedOffset(groupId)).toBe(4n);
    // A new member of the group starts at the first unacknowledged record.
    const again = new Consumer(client, { groupId, autoOffsetReset: 'earliest', ackMode: 'explicit' });
    again.assign([tp()]);
    for await (const batch of again) {
      expect(batch.records[0].offset).toBe(4n);
      break;
    }
    await again.close();
  });

  it('refuses an unknown mode, naming the option', () => {
    expect(() => new Consumer(client, { groupId: 'g', ackMode: 'later' as 'explicit' })).toThrow(/ackMode/);
  });
});
