import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { JavaOracle, type Observation, type Step } from './java-oracle.js';
import { newClient, newTopic, produce, readRecords, targets, uniqueGroup, where } from './setup.js';

let java: JavaOracle;
beforeAll(async () => {
  java = await JavaOracle.start();
}, 180_000);
afterAll(async () => {
  await java?.close();
});

/** Runs a scenario's steps on a tidemark consumer and records what each observing step saw, as the Java side does. */
async function runTidemark(consumer: Consumer, topic: string, steps: Step[]): Promise<Observation[]> {
  const seen: Observation[] = [];
  const tp = (partition: number) => ({ topic, partition });
  for (const step of steps) {
    let result: unknown = null;
    switch (step.op) {
      case 'assign':
        consumer.assign(step.partitions.map(tp));
        break;
      case 'seek':
        consumer.seek(tp(step.partition), BigInt(step.offset));
        break;
      case 'seekToBeginning':
        consumer.seekToBeginning(step.partitions.map(tp));
        break;
      case 'seekToEnd':
        consumer.seekToEnd(step.partitions.map(tp));
        break;
      case 'pause':
        consumer.pause(step.partitions.map(tp));
        break;
      case 'resume':
        consumer.resume(step.partitions.map(tp));
        break;
      case 'paused':
        result = consumer
          .paused()
          .map((p) => p.partition)
          .sort((a, b) => a - b);
        break;
      case 'position':
        result = String(await consumer.position(tp(step.partition), { signal: AbortSignal.timeout(30_000) }));
        break;
      case 'read':
        result = where(await readRecords(consumer, step.count));
        break;
      case 'commit':
        await consumer.commit();
        break;
      case 'commitOffsets':
        await consumer.commit({
          offsets: step.offsets.map((o) => ({ topic, partition: o.partition, offset: BigInt(o.offset) })),
        });
        break;
      case 'committed':
        result = (await consumer.committed(step.partitions.map(tp))).map((c) => ({
          partition: c.partition,
          offset: c.offset === null ? null : String(c.offset),
          leaderEpoch: c.leaderEpoch ?? -1,
        }));
        break;
    }
    seen.push({ op: step.op, result });
  }
  return seen;
}

/** Two partitions of ten records each; every read is from one partition only, so the order is defined. */
const SCENARIO: Step[] = [
  { op: 'assign', partitions: [0, 1] },
  { op: 'committed', partitions: [0, 1] },
  { op: 'position', partition: 0 },
  { op: 'position', partition: 1 },
  { op: 'seek', partition: 0, offset: 5 },
  { op: 'position', partition: 0 },
  { op: 'seekToEnd', partitions: [1] },
  { op: 'position', partition: 1 },
  { op: 'read', count: 5 },
  { op: 'position', partition: 0 },
  { op: 'seekToBeginning', partitions: [0] },
  { op: 'position', partition: 0 },
  { op: 'pause', partitions: [0] },
  { op: 'paused' },
  { op: 'seek', partition: 1, offset: 7 },
  { op: 'read', count: 3 },
  { op: 'position', partition: 1 },
  { op: 'resume', partitions: [0] },
  { op: 'paused' },
  { op: 'read', count: 4 },
  { op: 'position', partition: 0 },
  { op: 'commit' },
  { op: 'committed', partitions: [0, 1] },
  { op: 'seek', partition: 0, offset: 2 },
  { op: 'commit' },
  { op: 'committed', partitions: [0, 1] },
  { op: 'commitOffsets', offsets: [{ partition: 0, offset: 6 }] },
  { op: 'committed', partitions: [0, 1] },
  { op: 'position', partition: 0 },
  { op: 'seek', partition: 0, offset: 20 },
  { op: 'position', partition: 0 },
  { op: 'read', count: 2 },
  { op: 'position', partition: 0 },
  { op: 'pause', partitions: [0, 1] },
  { op: 'seekToEnd', partitions: [0] },
  { op: 'position', partition: 0 },
  { op: 'paused' },
];

describe.each(targets())('seek, pause, resume, position and committed match the Java consumer ($label)', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'parity', 2);
    await produce(client, topic, [0, 1], 10, { batchSize: 3 });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('gives the same answers step by step', async () => {
    const expected = await java.scenario(target.bootstrap, topic, uniqueGroup('parity-java'), SCENARIO);
    const consumer = new Consumer(client, {
      groupId: uniqueGroup('parity-tm'),
      autoOffsetReset: 'earliest',
      autoCommit: false,
    });
    try {
      const actual = await runTidemark(consumer, topic, SCENARIO);
      // Compared step by step, so a mismatch names its step.
      for (let i = 0; i < SCENARIO.length; i++) {
        expect({ step: i, ...actual[i] }).toEqual({ step: i, ...expected[i] });
      }
    } finally {
      await consumer.close();
    }
  }, 120_000);
});
