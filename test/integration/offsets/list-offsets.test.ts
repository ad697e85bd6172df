import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ListOffsets } from '../../../protocol/apis/list-offsets.js';
import type { Client } from '../../../src/client.js';
import { CallTimeoutError } from '../../../src/cluster/deadline.js';
import { UnsupportedOffsetSpecError } from '../../../src/cluster/list-offsets.js';
import { Connection } from '../../../src/network/connection.js';
import { RequestAbortedError } from '../../../src/network/errors.js';
import { JavaClients } from './java-helper.js';
import { deleteRecordsBefore, newClient, newTopic, targets } from './setup.js';

let java: JavaClients;
beforeAll(async () => {
  java = await JavaClients.start();
}, 120_000);
afterAll(async () => {
  await java?.close();
});

/** Record timestamps per partition: repeated, out of order, and with gaps, as real producers write them. */
const TIMESTAMPS: Record<number, number[]> = {
  0: [1_000, 2_000, 2_000, 3_000, 2_500, 4_000],
  1: [10_000, 20_000],
  2: [],
};

describe.each(targets())('ListOffsets against $label', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'list-offsets', 3);
    const records = Object.entries(TIMESTAMPS).flatMap(([p, stamps]) =>
      stamps.map((timestamp, i) => ({ partition: Number(p), timestamp, value: `v${i}` })),
    );
    await java.produce(target.bootstrap, topic, records);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('answers offsetsForTimes exactly as the Java consumer, before the first and after the last record too', async () => {
    const stamps = [0, 999, 1_000, 1_500, 2_000, 2_001, 2_500, 3_000, 3_500, 4_000, 4_001, 9_999_999_999];
    const queries = [0, 1, 2].flatMap((partition) => stamps.map((timestamp) => ({ partition, timestamp })));
    const ours = await client.offsets.offsetsForTimes(queries.map((q) => ({ topic, ...q })));
    const theirs = await java.offsetsForTimes(target.bootstrap, topic, queries);
    const norm = ours.map((o) =>
      o.offset === null
        ? null
        : { offset: String(o.offset), timestamp: String(o.timestamp), leaderEpoch: o.leaderEpoch ?? -1 },
    );
    expect(norm).toEqual(theirs);
    // The cases the comparison must cover: before the first record, and after the last.
    expect(norm[0]).toEqual({ offset: '0', timestamp: '1000', leaderEpoch: 0 });
    expect(norm[stamps.indexOf(4_001)]).toBeNull();
  });

  it('gives earliest, latest and max-timestamp with the leader epoch of the answer', async () => {
    const earliest = await client.offsets.earliest(topic);
    const latest = await client.offsets.latest(topic);
    expect(earliest.map((l) => l.offset)).toEqual([0n, 0n, 0n]);
    expect(latest.map((l) => l.offset)).toEqual([6n, 2n, 0n]);
    expect(latest[0].leaderEpoch).toBe(0);
    const [max] = await client.offsets.list([{ topic, partition: 0, spec: 'max-timestamp' }]);
    expect(max).toMatchObject({ offset: 5n, timestamp: 4_000n, leaderEpoch: 0 });
  });

  it('answers the tiered-storage specs as a broker without tiering does', async () => {
    const [local, tiered] = await client.offsets.list([
      { topic, partition: 0, spec: 'earliest-local' },
      { topic, partition: 0, spec: 'latest-tiered' },
    ]);
    expect(local.offset).toBe(0n);
    expect(tiered.offset).toBe(-1n);
    const pending = client.offsets.list([{ topic, partition: 0, spec: 'earliest-pending-upload' }]);
    // KIP-1023's spec needs ListOffsets v11: Kafka 4.2+ only.
    if (target.major >= 4) await expect(pending).resolves.toHaveLength(1);
    else await expect(pending).rejects.toBeInstanceOf(UnsupportedOffsetSpecError);
  });

  it('refuses a spec the version in use cannot express, with a typed error', async () => {
    const err = await client.offsets
      .list([{ topic, partition: 0, spec: 'max-timestamp' }], { version: 6 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedOffsetSpecError);
    expect(err.message).toMatch(/needs ListOffsets v7\+/);
    // An older version still answers what it can express.
    const [v1] = await client.offsets.list([{ topic, partition: 0, spec: 'latest' }], { version: 1 });
    expect(v1.offset).toBe(6n);
  });

  it('reads the last stable offset with read_committed (the high watermark without transactions)', async () => {
    const [committed] = await client.offsets.latest([{ topic, partition: 0 }], { isolationLevel: 'read_committed' });
    expect(committed.offset).toBe(6n);
  });

  it('sends one request per leader for many partitions', async () => {
    const spy = vi.spyOn(Connection.prototype, 'request');
    try {
      await client.offsets.list([0, 1, 2].map((partition) => ({ topic, partition, spec: 'latest' as const })));
      expect(spy.mock.calls.filter(([api]) => api === ListOffsets)).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('follows the log start offset after records are deleted', async () => {
    const other = await newTopic(client, 'list-offsets-deleted', 1);
    await java.produce(
      target.bootstrap,
      other,
      [0, 1, 2, 3].map((i) => ({ partition: 0, timestamp: 1_000 + i })),
    );
    await deleteRecordsBefore(client, other, 0, 3n);
    const [earliest] = await client.offsets.earliest(other);
    expect(earliest.offset).toBe(3n);
    const [[ours], theirs] = await Promise.all([
      client.offsets.offsetsForTimes([{ topic: other, partition: 0, timestamp: 0 }]),
      java.offsetsForTimes(target.bootstrap, other, [{ partition: 0, timestamp: 0 }]),
    ]);
    expect(String(ours.offset)).toBe(theirs[0]?.offset);
  });

  it('fails fast with a typed error for a topic that does not exist', async () => {
    const started = Date.now();
    const err = await client.offsets.earliest([{ topic: `${topic}-missing`, partition: 0 }]).catch((e) => e);
    expect(err.errorName).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('settles with a typed error when aborted, or when the timeout is too short to answer', async () => {
    const ac = new AbortController();
    ac.abort(new Error('not needed'));
    await expect(client.offsets.latest(topic, { signal: ac.signal })).rejects.toBeInstanceOf(RequestAbortedError);
    await expect(client.offsets.latest(topic, { timeoutMs: 0 })).rejects.toBeInstanceOf(CallTimeoutError);
  });
});
