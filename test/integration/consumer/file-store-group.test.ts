import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { BrokerOffsetStore } from '../../../src/consumer/broker-offset-store.js';
import type { Consumer } from '../../../src/consumer/consumer.js';
import type { RebalanceEvent } from '../../../src/consumer/events.js';
import type { GroupProtocol } from '../../../src/consumer/group/membership.js';
import { OffsetStoreLockedError } from '../../../src/offsets/errors.js';
import { FileOffsetStore, type FileOffsetStoreEvent } from '../../../src/offsets/file/file-offset-store.js';
import { kafkaClasspath } from '../../harness/classpath.js';
import { newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

const PARTITIONS = 4;

/** `kafka-consumer-groups --describe --group <group>`, run from the broker's jars; its stdout. */
async function kafkaConsumerGroupsDescribe(bootstrap: string, group: string): Promise<string> {
  const classpath = await kafkaClasspath('4.4.0');
  const args = ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-cp', classpath];
  args.push('org.apache.kafka.tools.consumer.group.ConsumerGroupCommand');
  args.push('--bootstrap-server', bootstrap, '--describe', '--group', group);
  const { stdout } = await promisify(execFile)('java', args, { timeout: 90_000, maxBuffer: 4 * 1024 * 1024 });
  return stdout;
}
const HALF = 25;

/** Resolves once `check` holds (polled), or rejects naming `what` after `ms`. */
async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A consumer group whose offsets live in a FileOffsetStore: members load positions from the file when
 * partitions are assigned, commit to it on revoke and on close, and (with `mirrorTo`) copy every commit to
 * the broker so the group's lag shows in `kafka-consumer-groups --describe` and tidemark's admin.
 */
describe.each(targets())('a group on a FileOffsetStore ($label)', (target) => {
  let client: Client;
  let dir: string;

  beforeAll(async () => {
    client = newClient(target);
    dir = await mkdtemp(path.join(tmpdir(), 'tidemark-file-group-'));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  // Classic everywhere; KIP-848 where the broker speaks it (revokes only what moves, so the lock stays taken).
  const protocols: GroupProtocol[] = target.major >= 4 ? ['classic', 'consumer'] : ['classic'];
  it.each(protocols)(
    'two members sharing one store (%s): the newcomer continues where the first left off; the broker mirror shows the end',
    async (protocol) => {
      const topic = await newTopic(client, 'file-group', PARTITIONS);
      const partitions = [...Array(PARTITIONS).keys()];
      await produce(client, topic, partitions, HALF);
      const groupId = uniqueGroup('file-group');
      const storeEvents: FileOffsetStoreEvent[] = [];
      const mirror = new BrokerOffsetStore({
        cluster: client.cluster,
        coordinators: client.coordinators,
        requestTimeoutMs: 15_000,
      });
      const store = new FileOffsetStore({ dir, mirrorTo: mirror, onEvent: (e) => storeEvents.push(e) });
      /** How many times each (partition, offset) was delivered. */
      const seen = partitions.map(() => new Uint8Array(2 * HALF));
      let total = 0;
      const member = (name: string) => {
        const consumer = client.consumer({
          groupId,
          offsetStore: store,
          autoOffsetReset: 'earliest',
          group: protocol === 'classic' ? { protocol, heartbeatIntervalMs: 300 } : { protocol },
        });
        const rebalances: RebalanceEvent[] = [];
        consumer.on('rebalance', (e) => rebalances.push(e));
        return { name, consumer, rebalances };
      };
      const loop = async (consumer: Consumer) => {
        for await (const batch of consumer) {
          for (const r of batch.records) seen[r.partition][Number(r.offset)]++;
          total += batch.records.length;
          batch.ack(); // processed: the test closes the consumers before this body could return
        }
      };

      const a = member('a');
      const b = member('b');
      const loops: Promise<void>[] = [];
      try {
        await a.consumer.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(30_000) });
        loops.push(loop(a.consumer));
        await until('the first member to read the first half', () => total >= PARTITIONS * HALF);

        await b.consumer.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(60_000) });
        await until('the first member to settle on its share', () => a.consumer.assignment().length < PARTITIONS);
        loops.push(loop(b.consumer));
        await produce(client, topic, partitions, HALF, { start: HALF });
        await until('both members to read the second half', () => total >= PARTITIONS * 2 * HALF);

        const owned = [...a.consumer.assignment(), ...b.consumer.assignment()].map((p) => p.partition).sort();
        expect(owned).toEqual(partitions);
        expect(a.rebalances.some((e) => e.kind === 'revoked')).toBe(true);
        expect(b.consumer.assignment().length).toBeGreaterThan(0);
      } finally {
        await Promise.all([a.consumer.close(), b.consumer.close()]);
        await Promise.all(loops);
        await store.close(); // waits for the copies to the broker
      }

      // Exactly once: the newcomer's partitions started at what the first member committed to the file on revoke
      // (earliest would have re-read 0-24).
      for (const p of partitions) {
        expect({ partition: p, firstNotOnce: seen[p].findIndex((c) => c !== 1) }).toEqual({
          partition: p,
          firstNotOnce: -1,
        });
      }
      const reopened = new FileOffsetStore({ dir });
      const inFile = await reopened.load(
        groupId,
        partitions.map((partition) => ({ topic, partition })),
      );
      await reopened.close();
      expect(partitions.map((p) => inFile.get(topic)?.get(p)?.offset)).toEqual(partitions.map(() => BigInt(2 * HALF)));

      // The mirror: the broker's OffsetFetch and tidemark's describe (as kafka-consumer-groups) show the end, lag 0.
      const committed = await client.offsets.committed(groupId, null);
      expect(committed.map((c) => c.offset)).toEqual(partitions.map(() => BigInt(2 * HALF)));
      const described = await client.groups.describeGroupOffsets(groupId);
      expect(described.totalLag).toBe(0n);
      expect(described.partitions.map((p) => p.committedOffset)).toEqual(partitions.map(() => BigInt(2 * HALF)));
      const mirrorFailures = storeEvents.filter((e) => e.type === 'mirror-failed');
      console.info(`[file-store-group ${target.label} ${protocol}] mirror-failed events: ${mirrorFailures.length}`);
    },
    180_000,
  );

  it('mirroring shows the lag of a group that has not caught up', async () => {
    const topic = await newTopic(client, 'file-lag', 1);
    await produce(client, topic, [0], 40);
    const groupId = uniqueGroup('file-lag');
    const mirror = new BrokerOffsetStore({
      cluster: client.cluster,
      coordinators: client.coordinators,
      requestTimeoutMs: 15_000,
    });
    const store = new FileOffsetStore({ dir, mirrorTo: mirror });
    const consumer = client.consumer({ groupId, offsetStore: store, autoOffsetReset: 'earliest' });
    consumer.assign([{ topic, partition: 0 }]);
    try {
      await readRecords(consumer, 15);
      await consumer.commit();
    } finally {
      await consumer.close();
      await store.close();
    }
    const described = await client.groups.describeGroupOffsets(groupId);
    expect(described.partitions).toEqual([
      expect.objectContaining({ topic, partition: 0, committedOffset: 15n, logEndOffset: 40n, lag: 25n }),
    ]);
    // Kafka's own tool, once (a JVM start costs ~10 s on the shared machine; the 4.x tool reads 3.9 alike).
    if (target.major >= 4) {
      const table = await kafkaConsumerGroupsDescribe(target.bootstrap, groupId);
      const row = table.split('\n').find((line) => line.startsWith(`${groupId} `));
      // GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG ...
      expect(row?.split(/\s+/).slice(1, 6)).toEqual([topic, '0', '15', '40', '25']);
    }
  }, 120_000);

  it('the limit: members with their own store on the same directory cannot share a topic (per-topic lock)', async () => {
    const topic = await newTopic(client, 'file-group-lock', 2);
    await produce(client, topic, [0, 1], 10);
    const groupId = uniqueGroup('file-group-lock');
    const stores = [new FileOffsetStore({ dir }), new FileOffsetStore({ dir })];
    const [first, second] = stores.map((offsetStore) =>
      client.consumer({ groupId, offsetStore, autoOffsetReset: 'earliest', group: { heartbeatIntervalMs: 300 } }),
    );
    try {
      await first.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(30_000) });
      await readRecords(first, 20);
      await first.commit();
      await second.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(60_000) });
      const members = [first, second];
      await until('each member to own one partition', () => members.every((c) => c.assignment().length === 1));
      // Each member owns one partition of the same topic, so each store needs the topic's lock: whichever
      // opens it second (an eager rebalance releases it, so it may be either) fails with the typed error.
      const outcomes = await Promise.all(
        members.map((c) =>
          c.position(c.assignment()[0], { signal: AbortSignal.timeout(30_000) }).then(
            (offset) => offset,
            (e: unknown) => e,
          ),
        ),
      );
      const locked = outcomes.filter((o) => o instanceof OffsetStoreLockedError);
      expect(locked).toHaveLength(1);
      expect((locked[0] as OffsetStoreLockedError).lockFile).toContain(dir);
      expect(outcomes.filter((o) => o === 10n)).toHaveLength(1); // the other one resumes from the file
    } finally {
      await Promise.all([first.close(), second.close()]);
      await Promise.all(stores.map((s) => s.close()));
    }
  }, 120_000);
});
