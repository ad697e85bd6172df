/**
 * OffsetFetch (v1-v7 one group, v8+ batched groups; topics by name, by id from v10): committed offsets, -1
 * where none was committed; null topics ask for every partition the group has committed (as Kafka answers).
 */
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

interface Asked {
  name: string;
  topicId?: string;
  partitionIndexes: number[];
}

export function answerOffsetFetch(kafka: FakeKafka, { body, version }: FakeRequest): unknown {
  if (version < 8) {
    const [group] = fetchGroups(kafka, [{ groupId: body.groupId, topics: body.topics }], version);
    return { throttleTimeMs: 0, topics: group.topics, errorCode: 0 };
  }
  return { throttleTimeMs: 0, groups: fetchGroups(kafka, body.groups, version) };
}

function fetchGroups(kafka: FakeKafka, groups: { groupId: string; topics: any[] | null }[], version: number) {
  return groups.map((g) => {
    const group = kafka.group(g.groupId);
    const asked: Asked[] =
      g.topics?.map((t) => ({ ...t, name: version >= 10 ? (kafka.topicNamed(t.topicId) ?? '') : t.name })) ??
      committedTopics(group.committed.keys());
    return {
      groupId: g.groupId,
      errorCode: 0,
      topics: asked.map((t) => ({
        ...(version >= 10 ? { topicId: t.topicId ?? kafka.topics.get(t.name)!.topicId } : { name: t.name }),
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
  });
}

/** The topics and partitions of `topic/partition` keys. */
function committedTopics(keys: Iterable<string>): Asked[] {
  const byTopic = new Map<string, number[]>();
  for (const key of keys) {
    const at = key.lastIndexOf('/');
    const name = key.slice(0, at);
    byTopic.set(name, [...(byTopic.get(name) ?? []), Number(key.slice(at + 1))]);
  }
  return [...byTopic].map(([name, partitionIndexes]) => ({ name, partitionIndexes }));
}
