/**
 * More OffsetCommit / OffsetFetch depth: pending transactional offsets with require_stable (KIP-447), metadata
 * over the size limit, a group nobody committed to, and topic ids in OffsetCommit / OffsetFetch v10.
 */
import { randomBytes } from 'node:crypto';
import { OffsetCommit } from '../../../protocol/apis/offset-commit.js';
import { OffsetFetch } from '../../../protocol/apis/offset-fetch.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { errorName, type Probe } from '../probe.js';
import { beginTransaction } from '../transactions.js';
import type { Check } from '../types.js';
import { topicIdOf } from './fetch-session.js';
import { commit, fetchGroups } from './offset-commit.js';

const GUIDE = 'Kafka protocol guide, OffsetCommit and OffsetFetch APIs';

export const offsetFetchChecks: Check[] = [
  {
    id: 'offset-commit.require-stable',
    area: 'offset-commit',
    expected:
      'while a transaction holds an offset commit, OffsetFetch with require_stable is UNSTABLE_OFFSET_COMMIT and without it shows the old offset; after the commit it shows the new one',
    spec: 'KIP-447 (OffsetFetch v7 require_stable)',
    async run(probe: Probe) {
      probe.requireVersion(OffsetFetch, 7, 'require_stable');
      const topic = await probe.suite.topic('commits', 2);
      const groupId = probe.suite.group('require-stable');
      const txn = await beginTransaction(probe, `${probe.suite.prefix}-offsets-txn`);
      let ended = false;
      try {
        await txn.commitOffset(groupId, topic, 0, 7n);
        const stable = (await fetchGroups(probe, [groupId], topic, [0], true)).get(groupId)?.[0];
        probe.errorCode(
          stable?.errorCode ?? -1,
          ErrorCode.UNSTABLE_OFFSET_COMMIT,
          'require_stable with a pending offset',
        );
        const loose = (await fetchGroups(probe, [groupId], topic, [0])).get(groupId)?.[0];
        probe.equal(loose?.committedOffset, -1n, 'offset without require_stable while the transaction is open');
        await txn.end(true);
        ended = true;
        let after = (await fetchGroups(probe, [groupId], topic, [0], true)).get(groupId)?.[0];
        for (const until = Date.now() + 5000; after?.committedOffset !== 7n && Date.now() < until; ) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          after = (await fetchGroups(probe, [groupId], topic, [0], true)).get(groupId)?.[0];
        }
        probe.errorCode(after?.errorCode ?? -1, 0, 'require_stable after the commit');
        probe.equal(after?.committedOffset, 7n, 'offset after the transaction committed');
        return 'UNSTABLE_OFFSET_COMMIT while pending, 7 once committed';
      } finally {
        if (!ended) await txn.end(false).catch(() => {});
      }
    },
  },
  {
    id: 'offset-commit.metadata-too-large',
    area: 'offset-commit',
    expected: 'commit metadata longer than offset.metadata.max.bytes (default 4096) is OFFSET_METADATA_TOO_LARGE',
    spec: `${GUIDE}; broker config offset.metadata.max.bytes`,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('commits', 2);
      const code = await commit(probe, probe.suite.group('big-metadata'), topic, 0, 1n, {}, 'm'.repeat(5000));
      probe.errorCode(code, ErrorCode.OFFSET_METADATA_TOO_LARGE, '5000 bytes of metadata');
      return 'OFFSET_METADATA_TOO_LARGE';
    },
  },
  {
    id: 'offset-commit.fetch-unknown-group',
    area: 'offset-commit',
    expected: 'OffsetFetch for a group nobody committed to answers offset -1 without an error',
    spec: GUIDE,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('commits', 2);
      const groupId = probe.suite.group('never-used');
      const fetched = (await fetchGroups(probe, [groupId], topic, [0, 1])).get(groupId) ?? [];
      probe.equal(fetched.length, 2, 'partitions answered');
      for (const p of fetched) {
        probe.errorCode(p.errorCode, 0, 'partition of a group with no offsets');
        probe.equal(p.committedOffset, -1n, 'offset of a group with no offsets');
      }
      return 'offset -1, no error';
    },
  },
  {
    id: 'offset-commit.topic-ids',
    area: 'offset-commit',
    expected:
      'OffsetCommit / OffsetFetch v10 name topics by id: a commit round-trips by id and an unknown id is UNKNOWN_TOPIC_ID',
    spec: 'KIP-848 (OffsetCommit v10, OffsetFetch v10)',
    async run(probe: Probe) {
      probe.requireVersion(OffsetCommit, 10, 'topic ids in OffsetCommit');
      probe.requireVersion(OffsetFetch, 10, 'topic ids in OffsetFetch');
      const topic = await probe.suite.topic('commits', 2);
      const topicId = await topicIdOf(probe, topic);
      const groupId = probe.suite.group('topic-ids');
      const coordinator = await probe.suite.coordinator(probe, groupId);
      const commitById = async (id: string) => {
        const response = await probe.send(
          coordinator,
          OffsetCommit,
          {
            groupId,
            generationIdOrMemberEpoch: -1,
            memberId: '',
            groupInstanceId: null,
            topics: [
              {
                topicId: id,
                partitions: [
                  { partitionIndex: 1, committedOffset: 33n, committedLeaderEpoch: -1, committedMetadata: '' },
                ],
              },
            ],
          },
          { version: 10 },
        );
        return response.topics[0]?.partitions[0]?.errorCode ?? -1;
      };
      probe.errorCode(await commitById(topicId), 0, 'commit by topic id');
      probe.errorCode(
        await commitById(randomBytes(16).toString('base64url')),
        ErrorCode.UNKNOWN_TOPIC_ID,
        'commit to an unknown topic id',
      );
      const fetched = await probe.send(
        coordinator,
        OffsetFetch,
        {
          groups: [{ groupId, memberId: null, memberEpoch: -1, topics: [{ topicId, partitionIndexes: [1] }] }],
          requireStable: false,
        },
        { version: 10 },
      );
      const g = fetched.groups[0];
      if (g === undefined || g.errorCode !== 0) probe.fail(`OffsetFetch v10 answered ${errorName(g?.errorCode ?? -1)}`);
      probe.equal(g.topics[0]?.topicId, topicId, 'topic id in the OffsetFetch answer');
      probe.equal(g.topics[0]?.partitions[0]?.committedOffset, 33n, 'offset fetched by topic id');
      return 'offset 33 round-trips by topic id; unknown id refused';
    },
  },
];
