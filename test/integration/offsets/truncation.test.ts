import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OffsetForLeaderEpoch } from '../../../protocol/apis/offset-for-leader-epoch.js';
import type { Client } from '../../../src/client.js';
import { JavaClients } from './java-helper.js';
import { newClient, newTopic, targets } from './setup.js';

let java: JavaClients;
beforeAll(async () => {
  java = await JavaClients.start();
}, 120_000);
afterAll(async () => {
  await java?.close();
});

describe.each(targets())('truncation detection (OffsetForLeaderEpoch) against $label', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'truncation', 1);
    await java.produce(
      target.bootstrap,
      topic,
      [0, 1, 2, 3, 4].map((i) => ({ partition: 0, timestamp: 1_000 + i })),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it('tells where an epoch ends in the log', async () => {
    const [current, newer] = await client.offsets.epochEndOffsets([
      { topic, partition: 0, leaderEpoch: 0 },
      { topic, partition: 0, leaderEpoch: 7 },
    ]);
    expect(current).toMatchObject({ leaderEpoch: 0, endOffset: 5n });
    // No epoch at or below 7 that the leader could name beyond its latest: undefined.
    expect(newer).toMatchObject({ leaderEpoch: -1, endOffset: -1n });
  });

  it('keeps positions the log still has, and detects those it no longer has', async () => {
    const checks = await client.offsets.checkTruncation([
      { topic, partition: 0, offset: 5n, leaderEpoch: 0 },
      { topic, partition: 0, offset: 2n, leaderEpoch: 0 },
      // Past the end of epoch 0: the records between 5 and 9 are not in this log.
      { topic, partition: 0, offset: 9n, leaderEpoch: 0 },
      // An epoch newer than any this log has had: stored against another log (a re-created topic).
      { topic, partition: 0, offset: 2n, leaderEpoch: 99 },
      { topic, partition: 0, offset: 4n, leaderEpoch: -1 },
    ]);
    expect(checks.map((c) => c.status)).toEqual(['valid', 'valid', 'truncated', 'unknown-epoch', 'unchecked']);
    expect(checks[2].validPosition).toEqual({ offset: 5n, leaderEpoch: 0 });
    expect(checks[3].validPosition).toBeUndefined();
    expect(checks.map((c) => c.truncated)).toEqual([false, false, true, true, false]);
  });

  it('detects the same truncation at every OffsetForLeaderEpoch version the broker accepts', async () => {
    const range = (await client.cluster.anyConnection()).apiVersions!.range(OffsetForLeaderEpoch.key)!;
    for (let version = range.min; version <= range.max; version++) {
      const [check] = await client.offsets.checkTruncation([{ topic, partition: 0, offset: 9n, leaderEpoch: 0 }], {
        version,
      });
      expect([version, check.status, check.validPosition?.offset]).toEqual([version, 'truncated', 5n]);
    }
  });
});
