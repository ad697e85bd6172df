/**
 * Fetch: records exactly as produced (CRC, offsets, timestamps, headers), high watermark / last stable offset /
 * log start, OFFSET_OUT_OF_RANGE, fetch sessions (KIP-227), a diverging epoch (KIP-320) and read_committed with
 * an aborted transaction listed.
 */
import { decodeRecords } from '../../../codecs/records/index.js';
import { DeleteRecords } from '../../../protocol/apis/delete-records.js';
import { Fetch } from '../../../protocol/apis/fetch.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { errorName, type Probe } from '../probe.js';
import { openTransaction } from '../transactions.js';
import type { Check } from '../types.js';
import { type FetchAnswer, partitionsOf, sendFetch } from './fetch-session.js';

const GUIDE = 'Kafka protocol guide, Fetch API and record batch format';

const PRODUCED = [
  { key: 'k0', value: 'v0', timestamp: 1_700_000_000_000, headers: [{ key: 'h', value: 'x' }] },
  { key: null, value: 'v1', timestamp: 1_700_000_000_005, headers: [] },
  { key: 'k2', value: null, timestamp: 1_700_000_000_003, headers: [{ key: 'a', value: null }] },
];

function recordsFixture(probe: Probe): Promise<string> {
  return probe.suite.shared('fetch-records', async () => {
    const topic = await probe.suite.topic('fetch');
    await probe.suite.produce(undefined, topic, 0, PRODUCED);
    return topic;
  });
}

function only(probe: Probe, answer: FetchAnswer, partition: number) {
  if (answer.errorCode !== 0) probe.fail(`Fetch answered ${errorName(answer.errorCode)} for the whole request`);
  const p = partitionsOf(answer).get(partition);
  if (p === undefined) probe.fail(`the Fetch answer has no partition ${partition}`);
  return p;
}

const text = (b: Buffer | null) => (b === null ? null : b.toString());

export const fetchChecks: Check[] = [
  {
    id: 'fetch.records-as-produced',
    area: 'fetch',
    expected:
      'records come back with the offsets, timestamps, keys, values and headers produced, CRC-32C intact; HW, LSO and log start match',
    spec: GUIDE,
    async run(probe: Probe) {
      const topic = await recordsFixture(probe);
      const answer = await sendFetch(probe, await probe.suite.leader(topic, 0), topic, [
        { partition: 0, fetchOffset: 0n },
      ]);
      const p = only(probe, answer, 0);
      probe.errorCode(p.errorCode, 0, 'partition error');
      probe.equal(p.highWatermark, 3n, 'high watermark');
      if (answer.responses.length > 0 && probe.suite.versions.range(Fetch.key)!.max >= 5) {
        probe.equal(p.lastStableOffset, 3n, 'last stable offset');
        probe.equal(p.logStartOffset, 0n, 'log start offset');
      }
      const decoded = decodeRecords(p.records ?? Buffer.alloc(0), { topic, partition: 0 });
      const got = decoded.batches.flatMap((b) =>
        b.records.map((r) => ({
          offset: r.offset,
          key: text(r.key),
          value: text(r.value),
          timestamp: r.timestamp,
          headers: r.headers.map((h) => ({ key: h.key, value: text(h.value) })),
        })),
      );
      const want = PRODUCED.map((r, i) => ({ offset: BigInt(i), ...r }));
      probe.equal(got, want, 'records');
      return `3 records, CRC ok, HW ${p.highWatermark}`;
    },
  },
  {
    id: 'fetch.offset-out-of-range',
    area: 'fetch',
    expected: 'a fetch offset past the log end is OFFSET_OUT_OF_RANGE',
    spec: GUIDE,
    async run(probe: Probe) {
      const topic = await recordsFixture(probe);
      const connection = await probe.suite.leader(topic, 0);
      const answer = await sendFetch(probe, connection, topic, [{ partition: 0, fetchOffset: 1000n }]);
      probe.errorCode(only(probe, answer, 0).errorCode, ErrorCode.OFFSET_OUT_OF_RANGE, 'fetch at offset 1000 of 3');
      return 'OFFSET_OUT_OF_RANGE';
    },
  },
  {
    id: 'fetch.log-start',
    area: 'fetch',
    expected:
      'after DeleteRecords, a fetch below the new log start is OFFSET_OUT_OF_RANGE and a fetch at it reports that log start',
    spec: `${GUIDE}; KIP-107`,
    async run(probe: Probe) {
      probe.requireVersion(Fetch, 5, 'the log start offset in fetch answers');
      const topic = await probe.suite.topic('fetch-log-start');
      await probe.suite.produce(probe, topic, 0, [{ value: 'a' }, { value: 'b' }, { value: 'c' }, { value: 'd' }]);
      const connection = await probe.suite.leader(topic, 0);
      const deleted = await probe.send(connection, DeleteRecords, {
        topics: [{ name: topic, partitions: [{ partitionIndex: 0, offset: 2n }] }],
        timeoutMs: 10_000,
      });
      probe.errorCode(deleted.topics[0]?.partitions[0]?.errorCode ?? -1, 0, 'DeleteRecords to offset 2');
      const below = only(probe, await sendFetch(probe, connection, topic, [{ partition: 0, fetchOffset: 0n }]), 0);
      probe.errorCode(below.errorCode, ErrorCode.OFFSET_OUT_OF_RANGE, 'fetch at 0 below log start 2');
      const at = only(probe, await sendFetch(probe, connection, topic, [{ partition: 0, fetchOffset: 2n }]), 0);
      probe.errorCode(at.errorCode, 0, 'fetch at the log start');
      probe.equal(at.logStartOffset, 2n, 'log start offset in the fetch answer');
      const first = decodeRecords(at.records ?? Buffer.alloc(0)).batches[0]?.records.find((r) => r.offset >= 2n);
      probe.equal(first?.offset, 2n, 'first record returned');
      return 'below log start OFFSET_OUT_OF_RANGE; log start 2 reported';
    },
  },
  {
    id: 'fetch.diverging-epoch',
    area: 'fetch',
    expected:
      'a fetch whose last fetched epoch ends before the fetch offset gets divergingEpoch with that epoch’s end offset',
    spec: 'KIP-320 (Fetch v12)',
    async run(probe: Probe) {
      probe.requireVersion(Fetch, 12, 'diverging epochs');
      const topic = await recordsFixture(probe);
      const md = await probe.suite.client.cluster.partitionMetadata(topic, 0);
      const connection = await probe.suite.leader(topic, 0);
      const answer = await sendFetch(probe, connection, topic, [
        { partition: 0, fetchOffset: 5n, lastFetchedEpoch: md.leaderEpoch },
      ]);
      const p = only(probe, answer, 0);
      probe.errorCode(p.errorCode, 0, 'partition error');
      probe.equal(p.divergingEpoch, { epoch: md.leaderEpoch, endOffset: 3n }, 'divergingEpoch');
      return `divergingEpoch epoch ${md.leaderEpoch}, end offset 3`;
    },
  },
  {
    id: 'fetch.sessions',
    area: 'fetch',
    expected:
      'a full fetch opens a session; incremental fetches add and remove partitions; a wrong epoch is INVALID_FETCH_SESSION_EPOCH and an unknown session FETCH_SESSION_ID_NOT_FOUND',
    spec: 'KIP-227',
    async run(probe: Probe) {
      probe.requireVersion(Fetch, 7, 'fetch sessions');
      const topic = await probe.suite.topic('fetch-session', 2, {}, true);
      await probe.suite.produce(probe, topic, 0, [{ value: 'a' }]);
      await probe.suite.produce(probe, topic, 1, [{ value: 'b' }]);
      const leader = await probe.suite.leader(topic, 0);
      const leader1 = await probe.suite.leader(topic, 1);
      if (leader !== leader1)
        probe.skip('the broker placed the partitions on different brokers despite the assignment asked for');
      const full = await sendFetch(probe, leader, topic, [{ partition: 0, fetchOffset: 1n }], { sessionEpoch: 0 });
      probe.errorCode(full.errorCode, 0, 'full fetch');
      const sessionId = full.sessionId;
      if (sessionId === 0)
        probe.skip('the broker opened no fetch session (Kafka may not when its session cache is full)');
      const added = await sendFetch(probe, leader, topic, [{ partition: 1, fetchOffset: 0n }], {
        sessionId,
        sessionEpoch: 1,
      });
      probe.errorCode(added.errorCode, 0, 'incremental fetch adding partition 1');
      probe.expect(partitionsOf(added).has(1), 'the incremental fetch that added partition 1 does not return it');
      await probe.suite.produce(probe, topic, 0, [{ value: 'after-removal' }]);
      const removed = await sendFetch(probe, leader, topic, [], { sessionId, sessionEpoch: 2, forgotten: [0] });
      probe.errorCode(removed.errorCode, 0, 'incremental fetch removing partition 0');
      probe.expect(
        !partitionsOf(removed).has(0),
        'partition 0 was removed from the session (forgotten) but the next incremental fetch still returns it',
      );
      const wrongEpoch = await sendFetch(probe, leader, topic, [], { sessionId, sessionEpoch: 7 });
      probe.errorCode(wrongEpoch.errorCode, ErrorCode.INVALID_FETCH_SESSION_EPOCH, 'session epoch 7 when 3 is due');
      const unknown = await sendFetch(probe, leader, topic, [], { sessionId: sessionId ^ 0x5a5a5a, sessionEpoch: 1 });
      probe.errorCode(unknown.errorCode, ErrorCode.FETCH_SESSION_ID_NOT_FOUND, 'a session id the broker never gave');
      await sendFetch(probe, leader, topic, [], { sessionId, sessionEpoch: -1 }).catch(() => {});
      return `session ${sessionId}: add, remove, wrong epoch, unknown id`;
    },
  },
  {
    id: 'fetch.read-committed',
    area: 'fetch',
    expected:
      'read_committed answers list the aborted transaction (producer id, first offset) and LSO = HW once it ended; read_uncommitted lists none',
    spec: 'KIP-98 (Fetch v4)',
    async run(probe: Probe) {
      probe.requireVersion(Fetch, 4, 'read_committed');
      const topic = await probe.suite.topic('fetch-txn');
      await probe.suite.produce(probe, topic, 0, [{ value: 'before' }]);
      const txn = await openTransaction(probe, `${probe.suite.prefix}-fetch-txn`, topic, 0, [
        { value: 'aborted-1' },
        { value: 'aborted-2' },
      ]);
      await txn.end(false);
      const connection = await probe.suite.leader(topic, 0);
      let p = only(
        probe,
        await sendFetch(probe, connection, topic, [{ partition: 0, fetchOffset: 0n }], { isolationLevel: 1 }),
        0,
      );
      for (const until = Date.now() + 5000; p.lastStableOffset !== p.highWatermark && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        p = only(
          probe,
          await sendFetch(probe, connection, topic, [{ partition: 0, fetchOffset: 0n }], { isolationLevel: 1 }),
          0,
        );
      }
      probe.errorCode(p.errorCode, 0, 'read_committed partition error');
      probe.equal(p.highWatermark, 4n, 'high watermark (1 record, 2 aborted, 1 abort marker)');
      probe.equal(p.lastStableOffset, 4n, 'last stable offset after the abort');
      probe.equal(
        p.abortedTransactions,
        [{ producerId: txn.producerId, firstOffset: txn.baseOffset }],
        'abortedTransactions',
      );
      const uncommitted = only(
        probe,
        await sendFetch(probe, connection, topic, [{ partition: 0, fetchOffset: 0n }]),
        0,
      );
      probe.equal(uncommitted.abortedTransactions, null, 'abortedTransactions for read_uncommitted');
      return `aborted transaction of producer ${txn.producerId} at offset ${txn.baseOffset} listed`;
    },
  },
];
