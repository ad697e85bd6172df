import type { AssignorMember, PartitionAssignor, TopicInfo } from '../../../../src/consumer/assignors/index.js';

/** `{ member: ['t0-0', 't0-1', ...] }`, topics by name, partitions ascending: easy to read and compare. */
export function run(
  assignor: PartitionAssignor,
  members: AssignorMember[],
  topics: Record<string, number | TopicInfo>,
): Record<string, string[]> {
  const info = new Map(Object.entries(topics).map(([t, v]) => [t, typeof v === 'number' ? { partitions: v } : v]));
  const out: Record<string, string[]> = {};
  for (const [member, { partitions }] of assignor.assign(members, info)) {
    out[member] = partitions.flatMap((t) => t.partitions.map((p) => `${t.topic}-${p}`));
  }
  return out;
}

export const m = (memberId: string, topics: string[], extra: Partial<AssignorMember> = {}): AssignorMember => ({
  memberId,
  topics,
  ...extra,
});

/** Parses 't0-1' into an owned-partitions list. */
export function owned(...tps: string[]): Array<{ topic: string; partitions: number[] }> {
  const byTopic = new Map<string, number[]>();
  for (const tp of tps) {
    const i = tp.lastIndexOf('-');
    byTopic.set(tp.slice(0, i), [...(byTopic.get(tp.slice(0, i)) ?? []), Number(tp.slice(i + 1))]);
  }
  return [...byTopic].map(([topic, partitions]) => ({ topic, partitions }));
}
