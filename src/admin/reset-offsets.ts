import { TidemarkError } from '../../codecs/errors.js';
import { isKafkaError } from '../../protocol/kafka-error.js';
import { type CallOptions, Deadline } from '../cluster/deadline.js';
import { type ListOffsetsQuery, listOffsets } from '../cluster/list-offsets.js';
import { partitionKey, type TopicPartition } from '../cluster/partition-errors.js';
import { commitOffsets } from '../commit/offset-commit.js';
import { fetchCommittedOffsets } from '../commit/offset-fetch.js';
import type { CommittedOffset } from '../commit/types.js';
import { describeGroups, isInactive } from './describe-groups.js';
import type { GroupAdminContext } from './group-context.js';
import { GroupNotEmptyError, NoCommittedOffsetError } from './group-errors.js';

/** Where to move a group's offsets: the options of `kafka-consumer-groups --reset-offsets`. */
export type ResetTarget =
  | 'earliest'
  | 'latest'
  /** The first offset whose record timestamp is at or after this; the log end where there is none. */
  | { timestamp: number | bigint | Date }
  /** The same offset on every partition. */
  | { offset: bigint }
  /** Each partition's committed offset moved by this much (negative: back). */
  | { shiftBy: bigint | number }
  /** An offset per partition (an import); only these partitions are reset. */
  | {
      offsets: readonly {
        topic: string;
        partition: number;
        offset: bigint;
        leaderEpoch?: number | null;
        metadata?: string | null;
      }[];
    };

export interface ResetOffsetsOptions extends CallOptions {
  /** Reset every partition of these topics. */
  topics?: readonly string[];
  /** Reset these partitions. Without topics or partitions: every partition the group has committed. */
  partitions?: readonly TopicPartition[];
  /** Work out and return the plan without committing anything. */
  dryRun?: boolean;
}

export interface ResetPlanEntry {
  topic: string;
  partition: number;
  /** The committed offset before the reset; null when there was none. */
  currentOffset: bigint | null;
  newOffset: bigint;
  /** Set when the wanted offset lay outside the log and was moved to its nearest end, as Kafka's tool does. */
  clamped?: 'earliest' | 'latest';
  /** Committed with the offset (imports keep the exported epoch and metadata). */
  leaderEpoch?: number;
  metadata?: string;
}

export interface ResetPlan {
  groupId: string;
  /** The group's state when the plan was made (Empty or Dead: a group with live members is refused). */
  state: string;
  dryRun: boolean;
  /** Sorted by topic and partition; exactly the partitions that are (or, on a dry run, would be) committed. */
  entries: ResetPlanEntry[];
}

/**
 * Moves an inactive group's committed offsets, or (dryRun) only says how it would. A group with live members is
 * refused with GroupNotEmptyError before anything is committed, as kafka-consumer-groups refuses it (dry run
 * included); a member that joins between the check and the commit makes the coordinator refuse the commit,
 * which is reported the same way. Offsets outside the log are moved to its nearest end.
 */
export async function resetGroupOffsets(
  ctx: GroupAdminContext,
  groupId: string,
  target: ResetTarget,
  options: ResetOffsetsOptions = {},
): Promise<ResetPlan> {
  checkTarget(target);
  const deadline = Deadline.of('ResetOffsets', options, ctx.requestTimeoutMs);
  const call = () => ({ timeoutMs: deadline.remaining(), signal: options.signal });
  const [group] = await describeGroups(ctx, [groupId], call());
  if (!isInactive(group.state)) throw new GroupNotEmptyError(groupId, group.state, group.members?.length);

  const committed = (await fetchCommittedOffsets(ctx, [{ groupId }], call())).get(groupId) ?? [];
  const current = new Map(committed.map((c) => [partitionKey(c.topic, c.partition), c]));
  const partitions = await partitionsToReset(ctx, target, options, committed, deadline);
  const entries = await plan(ctx, groupId, target, partitions, current, call);
  const result: ResetPlan = { groupId, state: group.state, dryRun: options.dryRun === true, entries };
  if (options.dryRun || entries.length === 0) return result;
  try {
    await commitOffsets(
      ctx,
      groupId,
      entries.map((e) => ({
        topic: e.topic,
        partition: e.partition,
        offset: e.newOffset,
        leaderEpoch: e.leaderEpoch,
        metadata: e.metadata,
      })),
      call(),
    );
  } catch (err) {
    // The coordinator takes a commit from outside the group only while it is empty.
    if (isKafkaError(err, 'UNKNOWN_MEMBER_ID') || isKafkaError(err, 'ILLEGAL_GENERATION')) {
      throw new GroupNotEmptyError(groupId, 'no longer empty (the coordinator refused the commit)', undefined, {
        cause: err,
      });
    }
    throw err;
  }
  return result;
}

async function partitionsToReset(
  ctx: GroupAdminContext,
  target: ResetTarget,
  options: ResetOffsetsOptions,
  committed: CommittedOffset[],
  deadline: Deadline,
): Promise<TopicPartition[]> {
  // An import resets exactly the partitions it lists.
  if (typeof target === 'object' && 'offsets' in target) return sorted(target.offsets);
  const chosen: TopicPartition[] = [...(options.partitions ?? [])];
  if (options.topics !== undefined && options.topics.length > 0) {
    const md = await deadline.race(ctx.cluster.metadata({ topics: options.topics }));
    for (const name of options.topics) {
      const topic = md.topics.get(name);
      if (topic === undefined || topic.error !== undefined) {
        throw topic?.error ?? new TidemarkError(`topic ${name} does not exist`);
      }
      for (const p of topic.partitions) chosen.push({ topic: name, partition: p.partition });
    }
  }
  const explicit = options.topics !== undefined || options.partitions !== undefined;
  return sorted(explicit ? chosen : committed);
}

/** Distinct partitions, sorted by topic and partition. */
function sorted(all: readonly TopicPartition[]): TopicPartition[] {
  const unique = new Map(
    all.map((p) => [partitionKey(p.topic, p.partition), { topic: p.topic, partition: p.partition }]),
  );
  return [...unique.values()].sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
}

/** Rejects a target of the wrong shape before anything is asked of the cluster. */
function checkTarget(target: ResetTarget): void {
  if (target === 'earliest' || target === 'latest') return;
  const ok =
    typeof target === 'object' &&
    target !== null &&
    (('timestamp' in target && target.timestamp !== undefined) ||
      ('offset' in target && typeof target.offset === 'bigint' && target.offset >= 0n) ||
      ('shiftBy' in target && (typeof target.shiftBy === 'bigint' || Number.isInteger(target.shiftBy))) ||
      ('offsets' in target && Array.isArray(target.offsets)));
  if (!ok)
    throw new TypeError(
      `invalid reset target ${JSON.stringify(target, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`,
    );
}

async function plan(
  ctx: GroupAdminContext,
  groupId: string,
  target: ResetTarget,
  partitions: TopicPartition[],
  current: Map<string, CommittedOffset>,
  call: () => CallOptions,
): Promise<ResetPlanEntry[]> {
  if (partitions.length === 0) return [];
  const lookups: ListOffsetsQuery[] = partitions.flatMap((p) => [
    { ...p, spec: 'earliest' as const },
    { ...p, spec: 'latest' as const },
  ]);
  if (typeof target === 'object' && 'timestamp' in target) {
    lookups.push(...partitions.map((p) => ({ ...p, spec: { timestamp: target.timestamp } })));
  }
  const listed = await listOffsets({ cluster: ctx.cluster, requestTimeoutMs: ctx.requestTimeoutMs }, lookups, call());
  const n = partitions.length;
  const explicit =
    typeof target === 'object' && 'offsets' in target
      ? new Map(target.offsets.map((o) => [partitionKey(o.topic, o.partition), o]))
      : undefined;
  return partitions.map((p, i) => {
    const earliest = listed[2 * i].offset;
    const latest = listed[2 * i + 1].offset;
    const now = current.get(partitionKey(p.topic, p.partition))?.offset ?? null;
    let wanted: bigint;
    let leaderEpoch: number | undefined;
    let metadata: string | undefined;
    if (target === 'earliest') wanted = earliest;
    else if (target === 'latest') wanted = latest;
    else if ('timestamp' in target) {
      const found = listed[2 * n + i].offset;
      wanted = found < 0n ? latest : found;
    } else if ('offset' in target) wanted = target.offset;
    else if ('shiftBy' in target) {
      if (now === null) throw new NoCommittedOffsetError(groupId, p.topic, p.partition);
      wanted = now + BigInt(target.shiftBy);
    } else {
      const o = explicit!.get(partitionKey(p.topic, p.partition))!;
      wanted = o.offset;
      leaderEpoch = o.leaderEpoch ?? undefined;
      metadata = o.metadata ?? undefined;
    }
    const entry: ResetPlanEntry = { topic: p.topic, partition: p.partition, currentOffset: now, newOffset: wanted };
    if (wanted < earliest) Object.assign(entry, { newOffset: earliest, clamped: 'earliest' });
    else if (wanted > latest) Object.assign(entry, { newOffset: latest, clamped: 'latest' });
    // The epoch belongs to the exported offset only; a clamped offset points at another record.
    else if (leaderEpoch !== undefined && leaderEpoch >= 0) entry.leaderEpoch = leaderEpoch;
    if (metadata !== undefined && metadata !== '') entry.metadata = metadata;
    return entry;
  });
}
