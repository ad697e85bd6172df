import { type CallOptions, Deadline } from '../cluster/deadline.js';
import { type IsolationLevel, listOffsetsSettled } from '../cluster/list-offsets.js';
import { partitionKey, type TopicPartition } from '../cluster/partition-errors.js';
import { fetchCommittedOffsets } from '../commit/offset-fetch.js';
import { describeGroups, type GroupDescription, type GroupMemberDescription } from './describe-groups.js';
import type { GroupAdminContext } from './group-context.js';

/** One row of `kafka-consumer-groups --describe`: a partition's committed offset, log end offset and lag. */
export interface PartitionLag {
  topic: string;
  partition: number;
  /** Null when the group has no commit for the partition (an assigned partition not committed yet). */
  committedOffset: bigint | null;
  committedLeaderEpoch: number | null;
  metadata: string | null;
  /** The high watermark (the last stable offset with read_committed); null when the topic no longer exists. */
  logEndOffset: bigint | null;
  /** logEndOffset - committedOffset; null when either is unknown. */
  lag: bigint | null;
  /** The member the partition is assigned to; null when none is (or the group's members are not known). */
  member: Pick<GroupMemberDescription, 'memberId' | 'groupInstanceId' | 'clientId' | 'clientHost'> | null;
}

export interface GroupOffsetsDescription {
  group: GroupDescription;
  /** Assigned and committed partitions, sorted by topic and partition. */
  partitions: PartitionLag[];
  /** The sum of the known lags. */
  totalLag: bigint;
}

export interface DescribeGroupOffsetsOptions extends CallOptions {
  /** Which end offset lag is measured against; default read_uncommitted, as kafka-consumer-groups does. */
  isolationLevel?: IsolationLevel;
}

/**
 * A group with its members and, per partition, the committed offset, log end offset and lag: what
 * `kafka-consumer-groups --describe --group` prints. Partitions assigned to a member but never committed are
 * listed with a null offset, and committed partitions no member holds with a null member, as Kafka's tool does.
 */
export async function describeGroupOffsets(
  ctx: GroupAdminContext,
  groupId: string,
  options: DescribeGroupOffsetsOptions = {},
): Promise<GroupOffsetsDescription> {
  const deadline = Deadline.of('DescribeGroupOffsets', options, ctx.requestTimeoutMs);
  const call = { timeoutMs: deadline.remaining(), signal: options.signal };
  const [[group], committed] = await Promise.all([
    describeGroups(ctx, [groupId], call),
    fetchCommittedOffsets(ctx, [{ groupId }], call).then((r) => r.get(groupId) ?? []),
  ]);
  const rows = new Map<string, PartitionLag>();
  const row = (tp: TopicPartition): PartitionLag => {
    const key = partitionKey(tp.topic, tp.partition);
    let r = rows.get(key);
    if (r === undefined) {
      r = {
        topic: tp.topic,
        partition: tp.partition,
        committedOffset: null,
        committedLeaderEpoch: null,
        metadata: null,
        logEndOffset: null,
        lag: null,
        member: null,
      };
      rows.set(key, r);
    }
    return r;
  };
  for (const m of group.members ?? []) {
    const { memberId, groupInstanceId, clientId, clientHost } = m;
    for (const tp of m.assignment) row(tp).member = { memberId, groupInstanceId, clientId, clientHost };
  }
  for (const c of committed) {
    const r = row(c);
    r.committedOffset = c.offset;
    r.committedLeaderEpoch = c.leaderEpoch;
    r.metadata = c.metadata;
  }
  const partitions = [...rows.values()].sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  const { listed, failures } = await listOffsetsSettled(
    { cluster: ctx.cluster, requestTimeoutMs: ctx.requestTimeoutMs, backoff: ctx.backoff },
    partitions.map((p) => ({ topic: p.topic, partition: p.partition, spec: 'latest' as const })),
    { timeoutMs: deadline.remaining(), signal: options.signal, isolationLevel: options.isolationLevel },
  );
  // Offsets may outlive their topic; such a partition has no log end offset, and nothing else is lost.
  const lost = failures.find((f) => !('errorName' in f.error) || f.error.errorName !== 'UNKNOWN_TOPIC_OR_PARTITION');
  if (lost !== undefined) throw lost.error;
  let totalLag = 0n;
  for (const l of listed) {
    const r = row(l);
    r.logEndOffset = l.offset;
    if (r.committedOffset !== null) {
      r.lag = l.offset - r.committedOffset;
      totalLag += r.lag;
    }
  }
  return { group, partitions, totalLag };
}
