import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../protocol/error-codes.js';
import { sleep } from '../../../../src/cluster/backoff.js';
import { Consumer } from '../../../../src/consumer/consumer.js';
import type { ConsumerBatch } from '../../../../src/consumer/consumer-record.js';
import type { ConsumerOptions } from '../../../../src/consumer/options.js';
import type { Coordinators } from '../../../../src/coordinator/coordinators.js';
import { FakeKafka } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';

let open: Consumer[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  open = [];
});

function consumerOf(kafka: FakeKafka, options: ConsumerOptions = {}): Consumer {
  const consumer = new Consumer(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    { autoOffsetReset: 'earliest', fetchMaxWaitMs: 20, ...options },
  );
  open.push(consumer);
  return consumer;
}

/** Reads until `count` records came, acking the last one; `partition:offset` of each. */
async function read(consumer: Consumer, count: number): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of consumer.batches({ signal: AbortSignal.timeout(5_000) })) {
    for (const r of batch.records) {
      out.push(`${r.partition}:${r.offset}`);
      if (out.length === count) {
        batch.ack(r);
        return out;
      }
    }
  }
  return out;
}

const partitionsOf = (fetch: { body: any }) =>
  fetch.body.topics.flatMap((t: any) => t.partitions.map((p: any) => p.partition)).sort();

describe('the fetch loop', () => {
  it('one source per broker: each request names only the partitions that broker leads', async () => {
    const kafka = new FakeKafka([1, 2]);
    kafka.createTopic('t', 4, (p) => (p % 2 === 0 ? 1 : 2));
    for (let p = 0; p < 4; p++) kafka.append('t', p, 10);
    const consumer = consumerOf(kafka);
    consumer.assign([0, 1, 2, 3].map((partition) => ({ topic: 't', partition })));
    const records = await read(consumer, 40);
    expect(new Set(records).size).toBe(40);
    expect(kafka.fetches(1)[0].body.topics[0].partitions.map((p: any) => p.partition)).toEqual([0, 2]);
    expect(kafka.fetches(2)[0].body.topics[0].partitions.map((p: any) => p.partition)).toEqual([1, 3]);
    for (const f of kafka.fetches()) {
      expect(partitionsOf(f).every((p: number) => p % 2 === (f.node === 1 ? 0 : 1))).toBe(true);
    }
  });

  it('pipelines: the next fetch is already out while the application holds a batch', async () => {
    const kafka = new FakeKafka([1]);
    kafka.createTopic('t', 1);
    kafka.append('t', 0, 100, 10);
    const consumer = consumerOf(kafka, { maxPartitionFetchBytes: 1 });
    consumer.assign([{ topic: 't', partition: 0 }]);
    const it = consumer.batches();
    const first = await it.next();
    expect((first.value as ConsumerBatch).records.map((r) => r.offset)).toEqual([...Array(10).keys()].map(BigInt));
    // The application has not asked for more, yet the following fetches went out and were buffered.
    await sleep(50);
    const offsets = kafka.fetches().map((f) => f.body.topics[0]?.partitions[0]?.fetchOffset);
    expect(offsets.slice(0, 3)).toEqual([0n, 10n, 20n]);
    await it.return!();
  });

  it('bounds what it fetches ahead by the buffer limit', async () => {
    const kafka = new FakeKafka([1]);
    kafka.createTopic('t', 1);
    kafka.append('t', 0, 200, 10);
    const consumer = consumerOf(kafka, { maxPartitionFetchBytes: 1, maxBufferedBytes: 2048 });
    consumer.assign([{ topic: 't', partition: 0 }]);
    const it = consumer.batches();
    await it.next();
    await sleep(100);
    const sent = kafka.fetches().length;
    // Each batch of 10 small records is ~200 bytes: about 2048 / 200 fetches, not 20.
    expect(sent).toBeLessThan(15);
    // A broker returns a partition's first batch whole even past the limit (KIP-74): at most one batch over.
    expect(consumer.metrics().bufferedBytes).toBeLessThanOrEqual(2048 + 256);
    // Taking batches frees room, and fetching goes on.
    for (let i = 0; i < 5; i++) await it.next();
    await sleep(50);
    expect(kafka.fetches().length).toBeGreaterThan(sent);
    await it.return!();
  });

  it('asks for at most a quarter of the buffer limit per request, so the next fetch fits beside the last response', async () => {
    const kafka = new FakeKafka([1]);
    kafka.createTopic('t', 8);
    for (let p = 0; p < 8; p++) kafka.append('t', p, 20, 10);
    // fetchMaxBytes stays at its 50 MiB default: the budget, not it, bounds the request.
    const consumer = consumerOf(kafka, { maxBufferedBytes: 64 * 1024 });
    consumer.assign([...Array(8).keys()].map((partition) => ({ topic: 't', partition })));
    expect(await read(consumer, 160)).toHaveLength(160);
    const asked = kafka.fetches().map((f) => f.body.maxBytes);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((b: number) => b === 16 * 1024)).toBe(true);

    const smaller = new FakeKafka([1]);
    smaller.createTopic('t', 1);
    smaller.append('t', 0, 10, 10);
    const capped = consumerOf(smaller, { maxBufferedBytes: 64 * 1024, fetchMaxBytes: 1000 });
    capped.assign([{ topic: 't', partition: 0 }]);
    expect(await read(capped, 10)).toHaveLength(10);
    expect(smaller.fetches()[0].body.maxBytes).toBe(1000);
  });

  it('recovers from FETCH_SESSION_ID_NOT_FOUND and INVALID_FETCH_SESSION_EPOCH with a full request', async () => {
    const kafka = new FakeKafka([1]);
    kafka.createTopic('t', 2);
    const more = () => {
      kafka.append('t', 0, 10);
      kafka.append('t', 1, 10);
    };
    const consumed = async () => {
      while (kafka.fetchHooks.sessionError !== undefined) await sleep(5);
    };
    more();
    const consumer = consumerOf(kafka);
    consumer.assign([0, 1].map((partition) => ({ topic: 't', partition })));
    const seen = new Set(await read(consumer, 20));
    // Each error hits an idle incremental fetch; the records written after it must still arrive, once.
    kafka.fetchHooks.sessionError = { node: 1, code: ErrorCode.FETCH_SESSION_ID_NOT_FOUND };
    await consumed();
    more();
    for (const r of await read(consumer, 20)) seen.add(r);
    kafka.fetchHooks.sessionError = { node: 1, code: ErrorCode.INVALID_FETCH_SESSION_EPOCH };
    await consumed();
    more();
    for (const r of await read(consumer, 20)) seen.add(r);
    expect(seen.size).toBe(60);
    const f = kafka.fetches();
    const afterNotFound = f.findIndex((x, i) => i > 0 && x.body.sessionEpoch === 0 && x.body.sessionId === 0);
    expect(afterNotFound).toBeGreaterThan(0);
    // INVALID_FETCH_SESSION_EPOCH: the old id is sent with epoch 0 (close it, open a new one).
    expect(f.some((x) => x.body.sessionEpoch === 0 && x.body.sessionId !== 0)).toBe(true);
    // Each full request after an error names every partition again.
    for (const x of f.filter((x) => x.body.sessionEpoch === 0)) expect(partitionsOf(x)).toEqual([0, 1]);
  });

  it('follows a leader that moved (NOT_LEADER_OR_FOLLOWER), validating the position on the new leader', async () => {
    const kafka = new FakeKafka([1, 2]);
    kafka.createTopic('t', 1);
    kafka.append('t', 0, 10);
    const consumer = consumerOf(kafka);
    consumer.assign([{ topic: 't', partition: 0 }]);
    await read(consumer, 10);
    kafka.moveLeader('t', 0, 2);
    kafka.append('t', 0, 10);
    expect(await read(consumer, 10)).toEqual([...Array(10).keys()].map((i) => `0:${i + 10}`));
    expect(kafka.fetches(2).length).toBeGreaterThan(0);
    expect(kafka.seen.some((r) => r.api === 'OffsetForLeaderEpoch' && r.node === 2)).toBe(true);
    // The new leader was asked with its epoch, so a stale one would fence the request.
    expect(kafka.fetches(2)[0].body.topics[0].partitions[0].currentLeaderEpoch).toBe(1);
  });

  it('reads from the follower the leader names (KIP-392), and goes back to the leader when it fails', async () => {
    const kafka = new FakeKafka([1, 2]);
    kafka.createTopic('t', 1);
    kafka.append('t', 0, 30);
    kafka.fetchHooks.followers = new Set([2]);
    let told = false;
    kafka.fetchHooks.partition = (node) => {
      if (node === 1 && !told) {
        told = true;
        return { preferredReadReplica: 2 };
      }
      return undefined;
    };
    const consumer = consumerOf(kafka, { clientRack: 'rack-b', maxPartitionFetchBytes: 1 });
    consumer.assign([{ topic: 't', partition: 0 }]);
    await read(consumer, 10);
    expect(kafka.fetches(1)[0].body.rackId).toBe('rack-b');
    expect(kafka.fetches(2).length).toBeGreaterThan(0);
    kafka.fetchHooks.partition = (node) => (node === 2 ? { errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER } : undefined);
    const before = kafka.fetches(1).length;
    expect(await read(consumer, 20)).toHaveLength(20);
    expect(kafka.fetches(1).length).toBeGreaterThan(before);
  });

  it('speaks topic ids from Fetch v13, and names topics up to v12', async () => {
    const kafka = new FakeKafka([1]);
    kafka.versions.Fetch = 17;
    kafka.createTopic('t', 1);
    kafka.append('t', 0, 5);
    const consumer = consumerOf(kafka);
    consumer.assign([{ topic: 't', partition: 0 }]);
    expect(await read(consumer, 5)).toHaveLength(5);
    expect(kafka.fetches()[0]).toMatchObject({
      version: 17,
      body: { topics: [{ topicId: kafka.topics.get('t')!.topicId }] },
    });
  });
});
