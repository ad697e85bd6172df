/**
 * The contract between consumer group membership and the consumer that uses it (fetch loop, commit engine).
 *
 * A membership joins one group, keeps the member alive (heartbeats on their own timer), and tells the consumer
 * which partitions it owns. The consumer:
 * - calls `start()` once, with a subscription and a rebalance listener;
 * - fetches only `assignment()`;
 * - commits with `commitContext()` (pass it as the `member` option of `commitOffsets`), which throws
 *   MemberNotStableError while no generation / epoch would be accepted;
 * - calls `notePoll()` every time the application comes back for records (max poll interval), and lets what it
 *   throws reach the application (MaxPollIntervalExceededError, listener errors, fatal errors);
 * - calls `commitRefused(error, sentUnder)` when a member commit failed with ILLEGAL_GENERATION,
 *   UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS, FENCED_INSTANCE_ID, FENCED_MEMBER_EPOCH or STALE_MEMBER_EPOCH,
 *   passing the typed error and the generation the commit was sent under;
 * - calls `leave()` on close.
 *
 * Listener order, for both protocols: `onRevoked(p)` is awaited while `p` is still in `assignment()` and
 * `commitContext()` still valid, so the consumer flushes their commits inside it; `p` leaves `assignment()` once it
 * settles. `onAssigned(p)` is awaited before `p` enters `assignment()`, so nothing is fetched before it settles.
 * `onLost(p)` comes after `p` has left `assignment()`: another member may own it already, so nothing is committed.
 * Callbacks never overlap, and a rebalance waits for them; an error they throw is reported (event `error`, and
 * thrown once by the next `notePoll()`) and the rebalance goes on.
 */

import type { BackoffOptions } from '../../cluster/backoff.js';
import type { TopicPartition } from '../../cluster/partition-errors.js';
import type { ConsumerGroupMetadata } from '../../offsets/group-metadata.js';
import type { BuiltInAssignorName, PartitionAssignor } from '../assignors/index.js';

export type GroupProtocol = 'classic' | 'consumer';

/** What the member subscribes to: topic names, or every (non-internal) topic whose whole name matches. */
export interface Subscription {
  topics?: readonly string[];
  pattern?: RegExp;
}

export interface RebalanceListener {
  /** Awaited before the partitions are fetched. */
  onAssigned?(partitions: TopicPartition[]): void | Promise<void>;
  /** Awaited; the consumer flushes commits of these inside its own handler before resolving. */
  onRevoked?(partitions: TopicPartition[]): void | Promise<void>;
  /** The partitions already belong to someone else, or will: no commit is attempted. */
  onLost?(partitions: TopicPartition[]): void | Promise<void>;
}

/** One completed step of a rebalance, as seen by this member. */
export interface RebalanceEvent {
  protocol: GroupProtocol;
  memberId: string;
  /** The classic generation id, or the KIP-848 member epoch (as ConsumerGroupMetadata names it). */
  generationId: number;
  /** Classic only: whether this member computed the assignment. */
  leader?: boolean;
  assigned: TopicPartition[];
  revoked: TopicPartition[];
  lost: TopicPartition[];
  /** What the member owns after this step. */
  assignment: TopicPartition[];
}

/**
 * - `idle`: not started; `joining`: no assignment yet (first join, or rejoining after losing membership);
 * - `rebalancing`: a member whose group is rebalancing (classic JoinGroup/SyncGroup, KIP-848 reconciliation);
 * - `stable`; `left`: after leave(); `failed`: a fatal error ended it (every call throws it).
 */
export type MembershipState = 'idle' | 'joining' | 'rebalancing' | 'stable' | 'left' | 'failed';

export interface MembershipEvents {
  rebalance: [event: RebalanceEvent];
  /** Errors the application may want to know of as they happen; each is also thrown by a later notePoll(). */
  error: [error: Error];
}

export interface LeaveOptions {
  /** A static member (group instance id) normally stays in the group until its session times out, so a restart keeps its partitions; true makes it leave now. */
  evenIfStatic?: boolean;
  /** Sent to the coordinator (LeaveGroup v5+), which logs it. */
  reason?: string;
}

export interface GroupMembership {
  readonly groupId: string;
  readonly protocol: GroupProtocol;
  readonly state: MembershipState;
  /** The member id, once the coordinator knows it ('' before the first join, classic). */
  readonly memberId: string;
  /** The classic generation id, or the KIP-848 member epoch; -1 while the member is in no generation. */
  readonly generationId: number;
  /**
   * Joins the group. Resolves once the first assignment has been received and `onAssigned` has settled; rejects
   * with the typed error when joining fails for good (FencedInstanceIdError, GroupProtocolUnsupportedError,
   * GroupJoinRefusedError…). Retriable trouble (coordinator moving, broker restarting) is retried meanwhile.
   */
  start(subscription: Subscription, listener?: RebalanceListener): Promise<void>;
  /** The partitions currently owned (stable between rebalances), sorted. */
  assignment(): TopicPartition[];
  /** For commits: throws MemberNotStableError if the member is not in a stable generation, or the fatal error. */
  commitContext(): ConsumerGroupMetadata;
  /**
   * The application came back for records (max poll interval). Throws, once each, what the application must
   * hear of: MaxPollIntervalExceededError (the member had left; this call starts the rejoin), a
   * RebalanceListenerError, a GroupMaxSizeReachedError; and the fatal error, every time.
   */
  notePoll(): void;
  /** Classic: rejoin the group for `reason`. KIP-848: heartbeat at once (the coordinator drives rebalances). */
  requestRejoin(reason: string): void;
  /**
   * The coordinator refused a commit this member sent under `sentUnder` with a group error (`error`, typed).
   * Classic, as Java's ConsumerCoordinator: UNKNOWN_MEMBER_ID and ILLEGAL_GENERATION reset the generation
   * (the partitions are lost: onLost, no commit) and rejoin, but only if the member still holds the generation
   * the commit was sent under; REBALANCE_IN_PROGRESS rejoins. KIP-848, as Java's async consumer: the commit
   * says nothing final about the member, so it heartbeats at once and the coordinator's answer decides
   * (fenced: lost and rejoin; a new epoch: go on).
   */
  commitRefused(error: unknown, sentUnder: ConsumerGroupMetadata): void;
  /** Changes what the member subscribes to; the group rebalances for it. */
  subscribe(subscription: Subscription): void;
  /**
   * Revokes what the member owns (onRevoked, awaited) and leaves: LeaveGroup (classic) or a heartbeat with
   * epoch -1 (KIP-848). A static member does not leave unless `evenIfStatic` (KIP-848: epoch -2, "back soon").
   */
  leave(options?: LeaveOptions): Promise<void>;
  on<E extends keyof MembershipEvents>(event: E, listener: (...args: MembershipEvents[E]) => void): this;
  off<E extends keyof MembershipEvents>(event: E, listener: (...args: MembershipEvents[E]) => void): this;
  once<E extends keyof MembershipEvents>(event: E, listener: (...args: MembershipEvents[E]) => void): this;
}

export interface GroupMembershipOptions {
  groupId: string;
  /** `classic` (JoinGroup/SyncGroup, the default) or `consumer` (KIP-848, Kafka 4.0+). */
  protocol?: GroupProtocol;
  /**
   * Classic: assignors in preference order; the coordinator picks the first every member supports. Default
   * `['range', 'cooperative-sticky']`, as Java's. Keep one instance per membership: the sticky ones keep state.
   * The rebalance protocol is cooperative when every assignor supports it, else eager (as Java decides).
   */
  assignors?: ReadonlyArray<PartitionAssignor | BuiltInAssignorName>;
  /** Static membership (KIP-345 / KIP-848): a restart within the session timeout keeps the assignment. */
  groupInstanceId?: string | null;
  /** Classic: how long the coordinator waits for a heartbeat before removing the member. Default 45 000. */
  sessionTimeoutMs?: number;
  /** How long a rebalance may wait for this member. Default: maxPollIntervalMs, as Java. */
  rebalanceTimeoutMs?: number;
  /** Classic: default 3 000. KIP-848: the coordinator says, and this is ignored. */
  heartbeatIntervalMs?: number;
  /** Default 300 000. */
  maxPollIntervalMs?: number;
  /** `client.rack`: rack-aware assignment (KIP-881). */
  rackId?: string | null;
  /** KIP-848: the broker-side assignor (`uniform`, `range`); null for the broker's default. */
  serverAssignor?: string | null;
  /** Bound of each request (JoinGroup: at least the rebalance timeout + 5 s, as Java). Default 30 000. */
  requestTimeoutMs?: number;
  /** Delay between retries of failed joins and heartbeats. Default 100 ms doubling to 1 s. */
  retryBackoff?: BackoffOptions;
  /** How often subscribed topics (patterns) and partition counts are checked for changes. Default 300 000. */
  metadataRefreshIntervalMs?: number;
}
