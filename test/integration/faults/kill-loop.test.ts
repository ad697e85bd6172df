/**
 * A consumer SIGKILLed at random (seeded) moments and restarted, again and again, until it has read every
 * record: with offsets in the broker (a group member) and in a FileOffsetStore (manual assignment). The
 * consumer runs in a child process (consumer-child.ts) and appends each record it processes to a sink file
 * before its loop body returns; ledger.ts checks the sink. TIDEMARK_SOAK=1 kills it 150 times per store,
 * TIDEMARK_SEED=n replays another schedule, TIDEMARK_KILLS=n sets the number of kills.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { parseGtoffset } from '../../../src/offsets/file/gtoffset-format.js';
import { offsetFilePaths } from '../../../src/offsets/file/path-encoding.js';
import { seededRandom } from '../../conformance/random.js';
import { newClient, newTopic, produce, targets, uniqueGroup } from '../consumer/setup.js';
import { ChildConsumer, faultSeed, removeChildScript, SOAK, waitUntil } from './child-consumer.js';
import type { ChildConfig } from './consumer-child.js';
import { checkRestarts, coversAll, missing, readSink, type SinkEntry } from './ledger.js';

const PARTITIONS = 4;
const PER_PARTITION = SOAK ? 60_000 : 8_000;
const KILLS = Number(process.env.TIDEMARK_KILLS ?? (SOAK ? 150 : 20));
/** Pacing of the child's loop: about 5 000 records/s, so the topic lasts across the kills. */
const MS_PER_RECORD = 0.2;

type Store = 'broker' | 'file';

describe.each<{ store: Store; label: string }>([
  { store: 'broker', label: 'broker offsets, group member (classic, static)' },
  { store: 'file', label: 'FileOffsetStore, manual assignment' },
])('a consumer killed $label', ({ store }) => {
  const target = targets()[0];
  let client: Client;
  let topic: string;
  let work: string;
  let passed = false;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, `kill-loop-${store}`, PARTITIONS);
    await produce(client, topic, [...Array(PARTITIONS).keys()], PER_PARTITION, { batchSize: 50 });
    work = mkdtempSync(path.join(tmpdir(), 'tidemark-kill-loop-'));
  }, 120_000);
  afterAll(async () => {
    removeChildScript();
    await client?.close();
    // Kept after a failure: the sink and offset files are the evidence.
    if (work !== undefined && passed) rmSync(work, { recursive: true, force: true });
    else if (work !== undefined) console.log(`kill-loop evidence kept in ${work}`);
  });

  it(`is SIGKILLed ${KILLS} times and still reads every record, duplicating only what was in flight`, async () => {
    const seed = faultSeed() + (store === 'file' ? 1 : 0);
    const random = seededRandom(seed);
    const groupId = uniqueGroup(`kill-${store}`);
    const sink = path.join(work, 'sink.log');
    const offsetDir = path.join(work, 'offsets');
    const gtoffset = offsetFilePaths(offsetDir, groupId, topic).file;
    const ends = new Array<number>(PARTITIONS).fill(PER_PARTITION);
    /** What the store holds right after each kill, by run. */
    const storedAfterKill = new Map<number, Map<number, number>>();
    let fileReads = 0;

    /** The offset file must parse whenever anyone looks: during runs (every few ms) and after each kill. */
    const readOffsetFile = (): Map<number, number> => {
      let bytes: Buffer;
      try {
        bytes = readFileSync(gtoffset);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
        throw err;
      }
      fileReads++;
      const content = parseGtoffset(bytes, gtoffset, { group: groupId, topic });
      return new Map([...content.partitions].map(([p, s]) => [p, Number(s.offset)]));
    };
    const readStored = async (): Promise<Map<number, number>> => {
      if (store === 'file') return readOffsetFile();
      const committed = await client.offsets.committed(
        groupId,
        [...Array(PARTITIONS).keys()].map((partition) => ({ topic, partition })),
      );
      return new Map(committed.filter((c) => c.offset !== null).map((c) => [c.partition, Number(c.offset)]));
    };
    const watchFile = (child: ChildConsumer): Promise<void> =>
      store === 'file'
        ? waitUntil(
            () => {
              readOffsetFile();
              return !child.alive;
            },
            120_000,
            () => 'child still running',
            5,
          )
        : Promise.resolve();

    const config = (run: number): ChildConfig => ({
      run,
      bootstrap: target.bootstrap,
      topic,
      groupId,
      sink,
      // A static member: the restarted process takes the dead one's place at once, instead of waiting a
      // session timeout for the coordinator to drop it; that keeps 20 restarts inside the time budget.
      group:
        store === 'broker'
          ? { protocol: 'classic', groupInstanceId: 'kill-loop', sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500 }
          : undefined,
      assign: store === 'file' ? [...Array(PARTITIONS).keys()] : undefined,
      offsetDir: store === 'file' ? offsetDir : undefined,
      // Commit intervals from very frequent to rarer than most runs last: from few to many records in flight.
      autoCommitIntervalMs: [20, 100, 500, 2_000][Math.floor(random() * 4)],
      msPerRecord: MS_PER_RECORD,
    });

    let kills = 0;
    let killedBeforeReady = 0;
    for (let run = 0; run < KILLS; run++) {
      const child = await ChildConsumer.spawn(config(run));
      const watching = watchFile(child);
      watching.catch(() => {}); // awaited below; a test that fails first must not leave it unhandled
      if (await child.runThenKill(random)) killedBeforeReady++;
      kills++;
      await watching;
      storedAfterKill.set(run, await readStored());
      appendFileSync(path.join(work, 'children.log'), `${child.describe()}\n`);
    }

    // The last run reads what is left and closes: its commit must cover every partition's end. Every record
    // having been read by some run is not enough to close it: a killed run may have read a partition's tail
    // that the last run, starting from the stored offset, has yet to reach (a dry run with two test files at
    // once closed it at 7,900 of 8,000). It is done once it read each partition's last record itself, or
    // found that partition's end already stored.
    const storedAtLastStart = storedAfterKill.get(KILLS - 1) ?? new Map<number, number>();
    const lastRunAtEnds = (entries: readonly SinkEntry[]): boolean =>
      ends.every(
        (end, p) =>
          storedAtLastStart.get(p) === end ||
          entries.some((e) => e.run === KILLS && e.kind === 'r' && e.partition === p && e.offset === end - 1),
      );
    const last = await ChildConsumer.spawn({ ...config(KILLS), autoCommitIntervalMs: 500 });
    const watching = watchFile(last);
    watching.catch(() => {});
    try {
      await last.ready(60_000);
      await waitUntil(
        () => {
          if (!last.alive) throw new Error(`last run died: ${last.describe()}`);
          const entries = readSink(sink);
          return coversAll(entries, ends) && lastRunAtEnds(entries);
        },
        120_000,
        () => `not every record read (${missing(readSink(sink), ends)}); last run: ${last.describe()}`,
        200,
      );
      await last.close(30_000);
    } finally {
      if (last.alive) await last.kill();
    }
    await watching;
    const finalStored = await readStored();

    const entries = readSink(sink);
    const check = checkRestarts(entries, ends, storedAfterKill);
    const inFlight = [...check.inFlightAtKill.values()];
    console.log(
      JSON.stringify({
        fault: 'consumer SIGKILL + restart',
        store: store === 'broker' ? 'broker (group, classic, static member)' : 'file (manual assignment)',
        seed,
        runs: KILLS + 1,
        kills,
        killedBeforeReady,
        records: PARTITIONS * PER_PARTITION,
        checked: check.processed,
        lost: check.lost,
        duplicated: check.duplicated,
        maxDuplicatesPerKill: Math.max(0, ...check.duplicatesAfterKill.values()),
        inFlightAtKills: inFlight.reduce((a, b) => a + b, 0),
        offsetFileReads: fileReads,
      }),
    );
    expect(check.violations).toEqual([]);
    expect(check.lost).toBe(0);
    expect(check.processed - check.duplicated).toBe(PARTITIONS * PER_PARTITION);
    expect(check.duplicated).toBeLessThanOrEqual(inFlight.reduce((a, b) => a + b, 0));
    expect([...finalStored.entries()].sort((a, b) => a[0] - b[0])).toEqual(ends.map((e, p) => [p, e]));
    // The schedule must have hit the consumer mid-read: otherwise this test proved nothing about duplicates.
    expect(check.duplicated).toBeGreaterThan(0);
    if (store === 'file') expect(fileReads).toBeGreaterThan(KILLS);
    passed = true;
  }, 600_000);
});
