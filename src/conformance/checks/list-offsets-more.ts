/**
 * More ListOffsets depth: an empty partition, a timestamp equal to a record's, a partition named twice in one
 * request, and OffsetForLeaderEpoch (KIP-320), the offset API consumers use to detect truncation.
 */
import { ListOffsets } from '../../../protocol/apis/list-offsets.js';
import { OffsetForLeaderEpoch } from '../../../protocol/apis/offset-for-leader-epoch.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { Probe } from '../probe.js';
import type { Check } from '../types.js';
import { list, logFixture } from './list-offsets.js';

const GUIDE = 'Kafka protocol guide, ListOffsets API';

export const moreListOffsetsChecks: Check[] = [
  {
    id: 'list-offsets.empty-partition',
    area: 'list-offsets',
    expected:
      'on an empty partition earliest and latest are 0, and -3 or any timestamp give offset -1 with timestamp -1',
    spec: `${GUIDE}; KIP-734`,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('list-offsets-empty');
      const queries: [bigint, bigint, string][] = [
        [-2n, 0n, 'earliest'],
        [-1n, 0n, 'latest'],
        [1_000n, -1n, 'timestamp 1000'],
      ];
      if (probe.suite.versions.range(ListOffsets.key)!.max >= 7) queries.push([-3n, -1n, 'max timestamp (-3)']);
      for (const [timestamp, offset, what] of queries) {
        const listed = await list(probe, topic, timestamp);
        probe.errorCode(listed.errorCode, 0, `${what} of an empty partition`);
        probe.equal(listed.offset, offset, `${what} of an empty partition`);
        if (timestamp >= -1n || timestamp === -3n) probe.equal(listed.timestamp, -1n, `timestamp for ${what}`);
      }
      return `earliest 0, latest 0, by time -1`;
    },
  },
  {
    id: 'list-offsets.exact-timestamp',
    area: 'list-offsets',
    expected: 'a timestamp equal to a record’s gives that record',
    spec: `${GUIDE}; KIP-79`,
    async run(probe: Probe) {
      const f = await logFixture(probe);
      const listed = await list(probe, f.topic, BigInt(f.base + 5000));
      probe.errorCode(listed.errorCode, 0, 'exact timestamp');
      probe.equal(listed.offset, 2n, 'offset for the exact timestamp of offset 2');
      probe.equal(listed.timestamp, BigInt(f.base + 5000), 'timestamp for the exact timestamp of offset 2');
      return 'offset 2';
    },
  },
  {
    id: 'list-offsets.duplicate-partition',
    area: 'list-offsets',
    expected: 'a partition named twice in one request is INVALID_REQUEST (and only that)',
    spec: GUIDE,
    async run(probe: Probe) {
      const f = await logFixture(probe);
      const connection = await probe.suite.leader(f.topic, 0);
      const response = await probe.send(connection, ListOffsets, {
        replicaId: -1,
        isolationLevel: 0,
        topics: [
          {
            name: f.topic,
            partitions: [
              { partitionIndex: 0, timestamp: -1n },
              { partitionIndex: 0, timestamp: -2n },
            ],
          },
        ],
      });
      const answers = response.topics.flatMap((t) => t.partitions);
      probe.expect(answers.length > 0, 'the answer names no partition');
      for (const a of answers) probe.errorCode(a.errorCode, ErrorCode.INVALID_REQUEST, 'partition 0 named twice');
      return `INVALID_REQUEST (${answers.length} entr${answers.length === 1 ? 'y' : 'ies'})`;
    },
  },
  {
    id: 'list-offsets.offset-for-leader-epoch',
    area: 'list-offsets',
    expected:
      'OffsetForLeaderEpoch gives the log end for the current epoch, -1/-1 for an epoch after it, and UNKNOWN_LEADER_EPOCH for a current epoch ahead of the leader',
    spec: 'KIP-101; KIP-320',
    async run(probe: Probe) {
      probe.requireVersion(OffsetForLeaderEpoch, 2, 'leader epochs');
      const f = await logFixture(probe);
      const md = await probe.suite.client.cluster.partitionMetadata(f.topic, 0);
      const connection = await probe.suite.leader(f.topic, 0);
      const ask = async (leaderEpoch: number, currentLeaderEpoch = -1) => {
        const response = await probe.send(connection, OffsetForLeaderEpoch, {
          replicaId: -1,
          topics: [{ topic: f.topic, partitions: [{ partition: 0, currentLeaderEpoch, leaderEpoch }] }],
        });
        const p = response.topics[0]?.partitions[0];
        if (p === undefined) probe.fail('the OffsetForLeaderEpoch answer names no partition');
        return p;
      };
      const current = await ask(md.leaderEpoch);
      probe.errorCode(current.errorCode, 0, 'current epoch');
      probe.equal(
        { leaderEpoch: current.leaderEpoch, endOffset: current.endOffset },
        { leaderEpoch: md.leaderEpoch, endOffset: 6n },
        'end of the current epoch',
      );
      const later = await ask(md.leaderEpoch + 1);
      probe.errorCode(later.errorCode, 0, 'an epoch after the current one');
      probe.equal(
        { leaderEpoch: later.leaderEpoch, endOffset: later.endOffset },
        { leaderEpoch: -1, endOffset: -1n },
        'end of an epoch after the current one',
      );
      const ahead = await ask(md.leaderEpoch, md.leaderEpoch + 5);
      probe.errorCode(ahead.errorCode, ErrorCode.UNKNOWN_LEADER_EPOCH, 'current leader epoch ahead of the leader');
      return `epoch ${md.leaderEpoch} ends at 6; later epoch -1/-1; UNKNOWN_LEADER_EPOCH`;
    },
  },
];
