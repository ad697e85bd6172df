/**
 * OffsetCommit (v1+; topics by name, by id from v10): stores each partition's offset in the group, unless the
 * group refuses the member or its generation / member epoch (groups.ts `commitError`), which fails every
 * partition alike; a topic id the cluster does not know is UNKNOWN_TOPIC_ID.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerOffsetCommit(kafka: FakeKafka, { body, version }: FakeRequest): unknown {
  const group = kafka.group(body.groupId);
  const refused = group.commitError(body.memberId, body.generationIdOrMemberEpoch, body.groupInstanceId ?? null);
  return {
    throttleTimeMs: 0,
    topics: body.topics.map((t: any) => {
      const name = version >= 10 ? kafka.topicNamed(t.topicId) : t.name;
      const errorCode = refused !== 0 ? refused : name === undefined ? ErrorCode.UNKNOWN_TOPIC_ID : 0;
      return {
        ...(version >= 10 ? { topicId: t.topicId } : { name }),
        partitions: t.partitions.map((p: any) => {
          if (errorCode === 0) {
            group.committed.set(`${name}/${p.partitionIndex}`, {
              offset: p.committedOffset,
              leaderEpoch: p.committedLeaderEpoch,
              metadata: p.committedMetadata,
            });
          }
          return { partitionIndex: p.partitionIndex, errorCode };
        }),
      };
    }),
  };
}
