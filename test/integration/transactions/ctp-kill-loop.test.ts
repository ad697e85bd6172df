/**
 * Consume-transform-produce exactly once under a SIGKILL loop: transform-child.ts (a consumer whose offsets
 * go into the producer's transaction through a TransactionalOffsetStore) is SIGKILLed at seeded random moments
 * and restarted with the same transactional id, again and again, until it has transformed the whole input.
 * The output topic read with read_committed must hold every input record exactly once (0 lost, 0 duplicated),
 * and the group's committed offsets must equal the input's end. TIDEMARK_SEED=n replays another schedule,
 * TIDEMARK_KILLS=n sets the number of kills.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { seededRandom } from '../../conformance/random.js';
import { produce } from '../consumer/setup.js';
import { ChildConsumer, faultSeed, removeChildScript, waitUntil } from '../faults/child-consumer.js';
import type { TransformChildConfig } from './transform-child.js';
import { newClient, newTopic, readValues, targets, uniqueGroup } from './txn-setup.js';

const PARTITIONS = 4;
const PER_PARTITION = 25_000;
const KILLS = Number(process.env.TIDEMARK_KILLS ?? 20);
/** About 2 500 records/s at most: 20 runs of a second or two leave part of the input to the last run. */
const MS_PER_RECORD = 0.4;
const CHILD = fileURLToPath(new URL('./transform-child.ts', import.meta.url));

// The children's bundle is shared by both cases: removed once, after both (a case that finished first would
// otherwise delete it while the other still starts children).
afterAll(() => removeChildScript());

// Both brokers at once: each case has its own topics, group and transactional id, asserts only what was
// delivered (never how fast), and spends most of its time starting child processes and waiting on its broker.
describe.concurrent.each(targets())('consume-transform-produce killed with SIGKILL ($label)', (target) => {
  let client: Client;
  let input: string;
  let output: string;

  beforeAll(async () => {
    client = newClient(target);
    input = await newTopic(client, 'ctp-in', PARTITIONS);
    output = await newTopic(client, 'ctp-out', PARTITIONS);
    await produce(client, input, [...Array(PARTITIONS).keys()], PER_PARTITION, { batchSize: 500 });
  }, 180_000);
  afterAll(async () => {
    await client?.close();
  });

  it(`is SIGKILLed ${KILLS} times; read_committed output holds every input exactly once`, async () => {
    const seed = faultSeed() + (target.major === 3 ? 1 : 0);
    const random = seededRandom(seed);
    const groupId = uniqueGroup('ctp');
    const tps = [...Array(PARTITIONS).keys()].map((partition) => ({ topic: input, partition }));
    const config = (run: number): TransformChildConfig => ({
      run,
      bootstrap: target.bootstrap,
      input,
      output,
      partitions: PARTITIONS,
      groupId,
      transactionalId: `ctp-${groupId}`,
      msPerRecord: MS_PER_RECORD,
    });
    // Not stable: a killed run's open transaction holds pending offsets until the next run's
    // initTransactions() aborts it, and a stable fetch would wait for that. The last committed ones are enough.
    const committedTotal = async () => {
      const committed = await client.offsets.committed(groupId, tps);
      return committed.reduce((sum, c) => sum + Number(c.offset ?? 0n), 0);
    };

    let kills = 0;
    let killedBeforeReady = 0;
    const committedAtKill: number[] = [];
    for (let run = 0; run < KILLS; run++) {
      const child = await ChildConsumer.spawn(config(run), CHILD);
      // At least 300 ms after ready: time for initTransactions() to have fenced the last run and to process.
      if (await child.runThenKill(random, 300)) killedBeforeReady++;
      kills++;
      committedAtKill.push(await committedTotal());
    }

    const last = await ChildConsumer.spawn(config(KILLS), CHILD);
    try {
      await last.ready(60_000);
      await waitUntil(
        async () => {
          if (!last.alive) throw new Error(`last run died: ${last.describe()}`);
          return (await committedTotal()) === PARTITIONS * PER_PARTITION;
        },
        240_000,
        () => `committed offsets short of the input's end; last run: ${last.describe()}`,
        500,
      );
      await last.close(30_000);
    } finally {
      if (last.alive) await last.kill();
    }

    const values = await readValues(client, output, [...Array(PARTITIONS).keys()]);
    const seen = new Map<string, number>();
    for (const v of values) seen.set(v, (seen.get(v) ?? 0) + 1);
    let lost = 0;
    for (let p = 0; p < PARTITIONS; p++) {
      for (let o = 0; o < PER_PARTITION; o++) if (!seen.has(`${p}:${o}`)) lost++;
    }
    const duplicated = values.length - seen.size;
    const written = (await readValues(client, output, [...Array(PARTITIONS).keys()], 'read_uncommitted')).length;
    const committed = await client.offsets.committed(groupId, tps, { requireStable: true });
    console.log(
      JSON.stringify({
        fault: 'consume-transform-produce SIGKILL + restart',
        broker: target.label,
        seed,
        kills,
        killedBeforeReady,
        records: PARTITIONS * PER_PARTITION,
        committedAtKills: committedAtKill,
        outputReadCommitted: values.length,
        outputWrittenInclAborted: written,
        lost,
        duplicated,
      }),
    );
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(values.length).toBe(PARTITIONS * PER_PARTITION);
    expect(committed.map((c) => c.offset)).toEqual(tps.map(() => BigInt(PER_PARTITION)));
    // The kills must have landed mid-stream: some aborted output exists, and progress was made between kills.
    expect(written).toBeGreaterThan(values.length);
    expect(committedAtKill.some((c) => c > 0)).toBe(true);
    expect(committedAtKill.at(-1)).toBeLessThan(PARTITIONS * PER_PARTITION);
  }, 900_000);
});
