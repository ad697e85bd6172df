import type { ConsumerGroupHeartbeatRequestInput } from '../../../../protocol/apis/consumer-group-heartbeat.js';
import type { ResolvedOptions } from '../options.js';

/** Member epochs with a meaning of their own (KIP-848). */
export const JOIN_EPOCH = 0;
export const LEAVE_EPOCH = -1;
/** A static member leaving for now: it keeps its assignment until its session times out. */
export const STATIC_LEAVE_EPOCH = -2;

export interface MemberSnapshot {
  memberId: string;
  memberEpoch: number;
  /** Sorted topic names. */
  topics: readonly string[];
  /** What the member owns, by topic id, partitions ascending. */
  owned: ReadonlyArray<{ topicId: string; partitions: number[] }>;
}

/**
 * Builds ConsumerGroupHeartbeat requests as Java's HeartbeatState does: group, member id, epoch and instance id
 * every time; the other fields only when joining or when they changed since the last request (null means
 * "unchanged"), so steady-state heartbeats stay small. The owned partitions are sent again whenever they changed:
 * that is how the member acknowledges a reconciled assignment. After any failure everything is sent again.
 */
export class HeartbeatRequestBuilder {
  private sentRebalanceTimeout: number | undefined;
  private sentTopics: string | undefined;
  private sentAssignor: string | null | undefined;
  private sentOwned: string | undefined;

  constructor(private readonly options: ResolvedOptions) {}

  /** Forget what was sent: the next request carries every field. */
  reset(): void {
    this.sentRebalanceTimeout = undefined;
    this.sentTopics = undefined;
    this.sentAssignor = undefined;
    this.sentOwned = undefined;
  }

  build(member: MemberSnapshot): ConsumerGroupHeartbeatRequestInput {
    const { options } = this;
    const all = member.memberEpoch === JOIN_EPOCH;
    const request: ConsumerGroupHeartbeatRequestInput = {
      groupId: options.groupId,
      memberId: member.memberId,
      memberEpoch: member.memberEpoch,
      instanceId: options.groupInstanceId,
      rackId: all ? options.rackId : null,
      rebalanceTimeoutMs: -1,
      subscribedTopicNames: null,
      subscribedTopicRegex: null,
      serverAssignor: null,
      topicPartitions: null,
    };
    if (all || this.sentRebalanceTimeout !== options.rebalanceTimeoutMs) {
      request.rebalanceTimeoutMs = options.rebalanceTimeoutMs;
      this.sentRebalanceTimeout = options.rebalanceTimeoutMs;
    }
    const topics = member.topics.join('\u0000');
    if (all || this.sentTopics !== topics) {
      request.subscribedTopicNames = [...member.topics];
      this.sentTopics = topics;
    }
    if (options.serverAssignor !== null && (all || this.sentAssignor !== options.serverAssignor)) {
      request.serverAssignor = options.serverAssignor;
      this.sentAssignor = options.serverAssignor;
    }
    const owned = member.owned.map((t) => `${t.topicId}:${t.partitions.join(',')}`).join(';');
    if (all || this.sentOwned !== owned) {
      request.topicPartitions = member.owned.map((t) => ({ topicId: t.topicId, partitions: [...t.partitions] }));
      this.sentOwned = owned;
    }
    return request;
  }

  /** The request that leaves the group (epoch -1, or -2 for a static member coming back). */
  leave(memberId: string, epoch: number): ConsumerGroupHeartbeatRequestInput {
    return {
      groupId: this.options.groupId,
      memberId,
      memberEpoch: epoch,
      instanceId: this.options.groupInstanceId,
      rackId: null,
      rebalanceTimeoutMs: -1,
      subscribedTopicNames: null,
      subscribedTopicRegex: null,
      serverAssignor: null,
      topicPartitions: null,
    };
  }
}
