/**
 * ListOffsets: earliest, latest, by timestamp (before, inside, after the log), the special timestamps -3 / -4 /
 * -5, leader epochs, isolation levels with an open transaction, and log start after DeleteRecords.
 */
import { DeleteRecords } from '../../../protocol/apis/delete-records.js';
import { ListOffsets } from '../../../protocol/apis/list-offsets.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { errorName, type Probe } from '../probe.js';
import { openTransaction } from '../transactions.js';
import type { Check } from '../types.js';

const GUIDE = 'Kafka protocol guide, ListOffsets API';

/** Six records in three batches; the middle batch holds the largest timestamp (so -3 is not simply the last). */
export interface LogFixture {
  topic: string;
  base: number;
}

export function logFixture(probe: Probe): Promise<LogFixture> {
  return probe.suite.shared('list-offsets-log', async () => {
    const topic = await probe.suite.topic('list-offsets');
    const base = Date.now() - 60_000;
    const at = (ms: number, value: string) => ({ value, timestamp: base + ms });
    await probe.suite.produce(undefined, topic, 0, [at(0, 'a'), at(1, 'b')]);
    await probe.suite.produce(undefined, topic, 0, [at(5000, 'c'), at(6000, 'd')]);
    await probe.suite.produce(undefined, topic, 0, [at(2000, 'e'), at(3000, 'f')]);
    return { topic, base };
  });
}

interface Listed {
  errorCode: number;
  offset: bigint;
  timestamp: bigint;
  leaderEpoch: number;
}

export async function list(
  probe: Probe,
  topic: string,
  timestamp: bigint,
  options: { partition?: number; isolationLevel?: number; version?: number; currentLeaderEpoch?: number } = {},
): Promise<Listed> {
  const partition = options.partition ?? 0;
  const connection = await probe.suite.leader(topic, 0);
  const response = await probe.send(
    connection,
    ListOffsets,
    {
      replicaId: -1,
      isolationLevel: options.isolationLevel ?? 0,
      topics: [
        {
          name: topic,
          partitions: [{ partitionIndex: partition, timestamp, currentLeaderEpoch: options.currentLeaderEpoch ?? -1 }],
        },
      ],
      timeoutMs: 10_000,
    },
    options.version === undefined ? {} : { version: options.version },
  );
  const p = response.topics[0]?.partitions[0];
  if (p === undefined) probe.fail(`the response names no partition for ${topic}-${partition}`);
  return p;
}

function expectOk(probe: Probe, listed: Listed, what: string): void {
  probe.errorCode(listed.errorCode, 0, what);
}

function offsetCheck(
  id: string,
  expected: string,
  spec: string,
  query: (f: LogFixture) => bigint,
  kafka: (f: LogFixture) => { offset: bigint; timestamp?: bigint },
  minVersion = 1,
): Check {
  return {
    id: `list-offsets.${id}`,
    area: 'list-offsets',
    expected,
    spec,
    async run(probe: Probe) {
      probe.requireVersion(ListOffsets, minVersion, `timestamp ${query({ topic: '', base: 0 })}`);
      const f = await logFixture(probe);
      const listed = await list(probe, f.topic, query(f));
      expectOk(probe, listed, id);
      const want = kafka(f);
      probe.equal(listed.offset, want.offset, `${id} offset`);
      if (want.timestamp !== undefined) probe.equal(listed.timestamp, want.timestamp, `${id} timestamp`);
      return `offset ${listed.offset}${want.timestamp === undefined ? '' : `, timestamp ${listed.timestamp}`}`;
    },
  };
}

const ts = (f: LogFixture, ms: number) => BigInt(f.base + ms);

export const listOffsetsChecks: Check[] = [
  offsetCheck(
    'earliest',
    'timestamp -2 gives the log start offset',
    GUIDE,
    () => -2n,
    () => ({ offset: 0n }),
  ),
  offsetCheck(
    'latest',
    'timestamp -1 gives the high watermark',
    GUIDE,
    () => -1n,
    () => ({ offset: 6n }),
  ),
  offsetCheck(
    'timestamp-before',
    'a timestamp before every record gives the first record and its timestamp',
    `${GUIDE}; KIP-79`,
    (f) => ts(f, -10_000),
    (f) => ({ offset: 0n, timestamp: ts(f, 0) }),
  ),
  offsetCheck(
    'timestamp-inside',
    'a timestamp inside the log gives the first offset whose timestamp is at or after it',
    `${GUIDE}; KIP-79`,
    (f) => ts(f, 1500),
    (f) => ({ offset: 2n, timestamp: ts(f, 5000) }),
  ),
  offsetCheck(
    'timestamp-after',
    'a timestamp after every record gives offset -1 and timestamp -1',
    `${GUIDE}; KIP-79`,
    (f) => ts(f, 60_000),
    () => ({ offset: -1n, timestamp: -1n }),
  ),
  offsetCheck(
    'max-timestamp',
    'timestamp -3 gives the offset and timestamp of the record with the largest timestamp',
    'KIP-734',
    () => -3n,
    (f) => ({ offset: 3n, timestamp: ts(f, 6000) }),
    7,
  ),
  offsetCheck(
    'local-log-start',
    'timestamp -4 gives the local log start offset (the log start without tiered storage)',
    'KIP-405',
    () => -4n,
    () => ({ offset: 0n }),
    8,
  ),
  offsetCheck(
    'latest-tiered',
    'timestamp -5 gives the last tiered offset, -1 when nothing is tiered',
    'KIP-1005',
    () => -5n,
    () => ({ offset: -1n }),
    9,
  ),
  {
    id: 'list-offsets.leader-epoch',
    area: 'list-offsets',
    expected:
      'v4+ answers carry the leader epoch of the offset, and a current leader epoch ahead of the leader is UNKNOWN_LEADER_EPOCH',
    spec: 'KIP-320',
    async run(probe: Probe) {
      probe.requireVersion(ListOffsets, 4, 'leader epochs');
      const f = await logFixture(probe);
      const md = await probe.suite.client.cluster.partitionMetadata(f.topic, 0);
      const latest = await list(probe, f.topic, -1n);
      expectOk(probe, latest, 'latest');
      probe.equal(latest.leaderEpoch, md.leaderEpoch, 'leader epoch of the latest offset');
      const ahead = await list(probe, f.topic, -1n, { currentLeaderEpoch: md.leaderEpoch + 5 });
      probe.errorCode(ahead.errorCode, ErrorCode.UNKNOWN_LEADER_EPOCH, 'current leader epoch ahead of the leader');
      return `leader epoch ${latest.leaderEpoch}; epoch ${md.leaderEpoch + 5} refused with UNKNOWN_LEADER_EPOCH`;
    },
  },
  {
    id: 'list-offsets.unknown-partition',
    area: 'list-offsets',
    expected: 'a partition the topic does not have is UNKNOWN_TOPIC_OR_PARTITION',
    spec: GUIDE,
    async run(probe: Probe) {
      const f = await logFixture(probe);
      const listed = await list(probe, f.topic, -1n, { partition: 99 });
      probe.errorCode(listed.errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'partition 99');
      return 'UNKNOWN_TOPIC_OR_PARTITION';
    },
  },
  {
    id: 'list-offsets.isolation-levels',
    area: 'list-offsets',
    expected:
      'with a transaction open, latest is the high watermark for read_uncommitted and the last stable offset for read_committed',
    spec: 'KIP-98 (ListOffsets v2 isolation level)',
    async run(probe: Probe) {
      probe.requireVersion(ListOffsets, 2, 'isolation levels');
      const topic = await probe.suite.topic('list-offsets-txn');
      await probe.suite.produce(probe, topic, 0, [{ value: 'x' }, { value: 'y' }]);
      const txn = await openTransaction(probe, `${probe.suite.prefix}-lo-txn`, topic, 0, [
        { value: 't1' },
        { value: 't2' },
        { value: 't3' },
      ]);
      try {
        const uncommitted = await list(probe, topic, -1n, { isolationLevel: 0 });
        const committed = await list(probe, topic, -1n, { isolationLevel: 1 });
        expectOk(probe, uncommitted, 'read_uncommitted latest');
        expectOk(probe, committed, 'read_committed latest');
        probe.equal(uncommitted.offset, 5n, 'read_uncommitted latest (high watermark)');
        probe.equal(committed.offset, txn.baseOffset, 'read_committed latest (last stable offset)');
        return `read_uncommitted ${uncommitted.offset}, read_committed ${committed.offset}`;
      } finally {
        await txn.end(false).catch(() => {});
      }
    },
  },
  {
    id: 'list-offsets.after-delete-records',
    area: 'list-offsets',
    expected: 'after DeleteRecords up to offset N, earliest (-2) and local log start (-4) are N',
    spec: 'KIP-107',
    async run(probe: Probe) {
      const topic = await probe.suite.topic('list-offsets-delete');
      await probe.suite.produce(
        probe,
        topic,
        0,
        [1, 2, 3, 4, 5].map((i) => ({ value: `r${i}` })),
      );
      const connection = await probe.suite.leader(topic, 0);
      const deleted = await probe.send(connection, DeleteRecords, {
        topics: [{ name: topic, partitions: [{ partitionIndex: 0, offset: 3n }] }],
        timeoutMs: 10_000,
      });
      const d = deleted.topics[0]?.partitions[0];
      if (d === undefined || d.errorCode !== 0) probe.fail(`DeleteRecords answered ${errorName(d?.errorCode ?? -1)}`);
      probe.equal(d.lowWatermark, 3n, 'DeleteRecords low watermark');
      const earliest = await list(probe, topic, -2n);
      expectOk(probe, earliest, 'earliest');
      probe.equal(earliest.offset, 3n, 'earliest after DeleteRecords to 3');
      if ((probe.suite.versions.range(ListOffsets.key)?.max ?? 0) >= 8) {
        const local = await list(probe, topic, -4n);
        expectOk(probe, local, 'local log start');
        probe.equal(local.offset, 3n, 'local log start after DeleteRecords to 3');
      }
      return 'earliest moved to 3';
    },
  },
];
