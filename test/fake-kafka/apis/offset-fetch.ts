/** OffsetFetch (v8-v9, batched groups, topics by name): committed offsets, -1 where none was committed. */
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerOffsetFetch(kafka: FakeKafka, { body }: FakeRequest) {
  return {
    throttleTimeMs: 0,
    groups: body.groups.map((g: any) => {
      const group = kafka.group(g.groupId);
      const asked: { name: string; partitionIndexes: number[] }[] =
        g.topics ?? [...kafka.topics].map(([name, t]) => ({ name, partitionIndexes: t.partitions.map((_, i) => i) }));
      return {
        groupId: g.groupId,
        errorCode: 0,
        topics: asked.map((t) => ({
          name: t.name,
          partitions: t.partitionIndexes.map((partitionIndex) => {
            const c = group.committed.get(`${t.name}/${partitionIndex}`);
            return {
              partitionIndex,
              committedOffset: c?.offset ?? -1n,
              committedLeaderEpoch: c?.leaderEpoch ?? -1,
              metadata: c?.metadata ?? null,
              errorCode: 0,
            };
          }),
        })),
      };
    }),
  };
}
