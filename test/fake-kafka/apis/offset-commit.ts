/**
 * OffsetCommit (up to v9, topics by name): stores each partition's offset in the group, unless the group refuses
 * the member or its generation / member epoch (groups.ts `commitError`), which fails every partition alike.
 */
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerOffsetCommit(kafka: FakeKafka, { body }: FakeRequest) {
  const group = kafka.group(body.groupId);
  const refused = group.commitError(body.memberId, body.generationIdOrMemberEpoch, body.groupInstanceId ?? null);
  return {
    throttleTimeMs: 0,
    topics: body.topics.map((t: any) => ({
      name: t.name,
      partitions: t.partitions.map((p: any) => {
        if (refused !== 0) return { partitionIndex: p.partitionIndex, errorCode: refused };
        group.committed.set(`${t.name}/${p.partitionIndex}`, {
          offset: p.committedOffset,
          leaderEpoch: p.committedLeaderEpoch,
          metadata: p.committedMetadata,
        });
        return { partitionIndex: p.partitionIndex, errorCode: 0 };
      }),
    })),
  };
}
