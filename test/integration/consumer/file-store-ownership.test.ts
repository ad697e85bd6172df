/**
 * Who owns an offset store the application gives a consumer (issue 19): the application does. It made the
 * store, may share it, and closes it; the consumer lets go of what it held when it closes (and when assign()
 * drops a topic), so a FileOffsetStore's lock on those topics is released. A second consumer in the same
 * process, with its own store on the same directory, then carries on where the first stopped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { FileOffsetStore } from '../../../src/offsets/file/file-offset-store.js';
import { newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

describe.each(targets())('an offset store the application gave the consumer ($label)', (target) => {
  let client: Client;
  let topic: string;
  let dir: string;
  const tp = () => ({ topic, partition: 0 });

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'store-ownership', 1);
    await produce(client, topic, [0], 40);
    dir = await mkdtemp(path.join(tmpdir(), 'tidemark-store-ownership-'));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('close() releases the topics it held (the store stays open); a second consumer on the directory goes on', async () => {
    const groupId = uniqueGroup('store-ownership');
    const first = new FileOffsetStore({ dir });
    const second = new FileOffsetStore({ dir });
    try {
      const a = client.consumer({ groupId, offsetStore: first, autoOffsetReset: 'earliest' });
      a.assign([tp()]);
      expect((await readRecords(a, 15)).at(-1)?.offset).toBe(14n);
      await a.close();

      const b = client.consumer({ groupId, offsetStore: second, autoOffsetReset: 'earliest' });
      b.assign([tp()]);
      const rest = await readRecords(b, 25, 20_000);
      expect(rest[0]?.offset).toBe(15n);
      // assign() dropping the topic lets go of it too.
      b.assign([]);
      await b.close();
      // The first store is still open (the application closes it) and can take the topic again.
      expect((await first.load(groupId, [tp()])).get(topic)?.get(0)?.offset).toBe(40n);
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);
});
