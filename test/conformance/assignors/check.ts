import type {
  AssignorMember,
  GroupAssignment,
  PartitionAssignor,
  TopicInfo,
  TopicPartitions,
} from '../../../src/consumer/assignors/index.js';
import type { Case } from './generate.js';
import { toOracleMembers, toTopicInfo } from './generate.js';
import type { AssignorOracle, OracleAnswer } from './oracle.js';

/** Comparing tidemark's assignments with Kafka's, and the cooperative protocol's rules. */

/** An assignment as sorted "topic-partition" strings per member, for comparison and messages. */
export type Flat = Record<string, string[]>;

const key = (topic: string, partition: number) => `${topic}:${partition}`;

export function flatten(a: GroupAssignment): Flat {
  const out: Flat = {};
  for (const [member, { partitions }] of [...a].sort(([x], [y]) => (x < y ? -1 : 1))) {
    out[member] = partitions.flatMap((t) => t.partitions.map((p) => key(t.topic, p))).sort();
  }
  return out;
}

export function flattenJava(answer: OracleAnswer): Flat | { error: string } {
  if ('error' in answer) return answer;
  const out: Flat = {};
  for (const member of Object.keys(answer.assignment).sort()) {
    out[member] = answer.assignment[member].map(([t, p]) => key(t, p)).sort();
  }
  return out;
}

export type Outcome = Flat | { error: string };

export function runTs(
  assignor: PartitionAssignor,
  members: readonly AssignorMember[],
  topics: Map<string, TopicInfo>,
): Outcome {
  try {
    return flatten(assignor.assign(members, topics));
  } catch (err) {
    return { error: String(err) };
  }
}

/** Same outcome: the same partitions for every member, or both failing. */
export function sameOutcome(ts: Outcome, java: Outcome): boolean {
  if ('error' in java || 'error' in ts) return 'error' in java && 'error' in ts;
  return JSON.stringify(ts) === JSON.stringify(java);
}

export interface Mismatch {
  label: string;
  ts: Outcome;
  java: Outcome;
  input: unknown;
}

/** Runs one case on both sides. */
export async function compareCase(
  oracle: AssignorOracle,
  name: string,
  assignor: PartitionAssignor,
  c: Case,
  label: string,
  session?: string,
): Promise<{ ts: Outcome; java: Outcome; mismatch?: Mismatch; javaBroken?: boolean }> {
  const javaAnswer = oracle.assign(name, c.topics, toOracleMembers(c.members), session);
  const topics = toTopicInfo(c.topics);
  const ts = runTs(assignor, c.members, topics);
  const java = flattenJava(await javaAnswer);
  const mismatch = { label, ts, java, input: { topics: c.topics, members: toOracleMembers(c.members) } };
  if (!('error' in java) && soundnessProblems(c.members, java, topics).length === 0) {
    return sameOutcome(ts, java) ? { ts, java } : { ts, java, mismatch };
  }
  // Kafka threw, or answered unsoundly (a partition to a non-subscriber, say): tidemark
  // deliberately answers soundly instead (see AbstractStickyAssignor.assignPartitions).
  if ('error' in ts) return { ts, java, mismatch };
  const problems = [
    ...soundnessProblems(c.members, ts, topics),
    ...(name === 'cooperative-sticky' ? cooperativeProblems(c.members, ts, topics) : unassigned(c.members, ts, topics)),
  ];
  return problems.length === 0
    ? { ts, java, javaBroken: true }
    : { ts, java, mismatch: { ...mismatch, label: `${label}: ${problems[0]}` } };
}

/** Cooperative: no revoke-first violation, and every unassigned partition is still owned by someone (being revoked). */
function cooperativeProblems(
  members: readonly AssignorMember[],
  result: Flat,
  topics: Map<string, TopicInfo>,
): string[] {
  const owned = new Set(ownersOf(members).keys());
  return [
    ...revokeFirstViolations(members, result),
    ...unassigned(members, result, topics).filter((p) => !owned.has(p.split(' ')[0])),
  ];
}

export function describeMismatches(mismatches: Mismatch[]): string {
  return mismatches
    .slice(0, 3)
    .map(
      (m) =>
        `${m.label}\n  tidemark: ${JSON.stringify(m.ts)}\n  kafka:    ${JSON.stringify(m.java)}\n  input: ${JSON.stringify(m.input)}`,
    )
    .join('\n');
}

function ownersOf(members: readonly AssignorMember[]): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const m of members) {
    for (const t of m.ownedPartitions ?? []) {
      for (const p of t.partitions) owners.set(key(t.topic, p), [...(owners.get(key(t.topic, p)) ?? []), m.memberId]);
    }
  }
  return owners;
}

/** Cooperative rule: a partition that other members still own is never assigned in the same rebalance. */
export function revokeFirstViolations(members: readonly AssignorMember[], result: Flat): string[] {
  const owners = ownersOf(members);
  const out: string[] = [];
  for (const [member, partitions] of Object.entries(result)) {
    for (const tp of partitions) {
      // A member that itself claims the partition (claims may conflict) is not taking it from anyone.
      const claimants = owners.get(tp) ?? [];
      if (claimants.length > 0 && !claimants.includes(member)) {
        out.push(`${tp} assigned to ${member} while ${claimants.join(',')} owns it`);
      }
    }
  }
  return out;
}

/** Partitions each member owned (and that still exist) but was not given. */
export function revokedCount(members: readonly AssignorMember[], result: Flat, topics: Map<string, TopicInfo>): number {
  let revoked = 0;
  for (const m of members) {
    const kept = new Set(result[m.memberId] ?? []);
    for (const t of m.ownedPartitions ?? []) {
      const count = topics.get(t.topic)?.partitions ?? 0;
      for (const p of t.partitions) if (p < count && !kept.has(key(t.topic, p))) revoked++;
    }
  }
  return revoked;
}

/**
 * The fewest revocations a balanced assignment allows when every member has
 * the same subscription: members above the quota shed the excess, and only
 * `partitions % members` of them may stay one above the minimum.
 */
export function minimalRevocations(members: readonly AssignorMember[], topics: Map<string, TopicInfo>): number {
  let total = 0;
  for (const t of members[0].topics) total += topics.get(t)?.partitions ?? 0;
  const n = members.length;
  const min = Math.floor(total / n);
  const max = Math.ceil(total / n);
  const owned = members.map((m) => (m.ownedPartitions ?? []).reduce((s, t) => s + t.partitions.length, 0));
  if (min === max) return owned.reduce((s, o) => s + Math.max(0, o - min), 0);
  const atMax = owned.filter((o) => o >= max).length;
  return owned.reduce((s, o) => s + Math.max(0, o - max), 0) + Math.max(0, atMax - (total % n));
}

/** Each assigned partition exists, is assigned once, and to a member subscribed to its topic. */
export function soundnessProblems(
  members: readonly AssignorMember[],
  result: Flat,
  topics: Map<string, TopicInfo>,
): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const subscribedBy = new Map(members.map((m) => [m.memberId, new Set(m.topics)]));
  for (const [member, partitions] of Object.entries(result)) {
    for (const tp of partitions) {
      const i = tp.lastIndexOf(':');
      const topic = tp.slice(0, i);
      if (seen.has(tp)) problems.push(`${tp} assigned to ${seen.get(tp)} and ${member}`);
      seen.set(tp, member);
      if (!subscribedBy.get(member)?.has(topic)) problems.push(`${tp} to non-subscriber ${member}`);
      if (!(Number(tp.slice(i + 1)) < (topics.get(topic)?.partitions ?? 0))) problems.push(`${tp} does not exist`);
    }
  }
  return problems;
}

/** Partitions of subscribed topics that nobody got. */
export function unassigned(members: readonly AssignorMember[], result: Flat, topics: Map<string, TopicInfo>): string[] {
  const seen = new Set(Object.values(result).flat());
  const problems: string[] = [];
  for (const topic of new Set(members.flatMap((m) => [...m.topics]))) {
    for (let p = 0; p < (topics.get(topic)?.partitions ?? 0); p++) {
      if (!seen.has(key(topic, p))) problems.push(`${key(topic, p)} unassigned`);
    }
  }
  return problems;
}

/** Sound and complete: every partition of a subscribed topic assigned exactly once, each to a subscriber. */
export function completenessProblems(
  members: readonly AssignorMember[],
  result: Flat,
  topics: Map<string, TopicInfo>,
): string[] {
  return [...soundnessProblems(members, result, topics), ...unassigned(members, result, topics)];
}

export function toGrouped(partitions: readonly string[]): TopicPartitions[] {
  const m = new Map<string, number[]>();
  for (const tp of partitions) {
    const i = tp.lastIndexOf(':');
    const topic = tp.slice(0, i);
    m.set(topic, [...(m.get(topic) ?? []), Number(tp.slice(i + 1))]);
  }
  return [...m].map(([topic, ps]) => ({ topic, partitions: ps.sort((a, b) => a - b) }));
}
