import { backoffDelay } from '../../../cluster/backoff.js';
import { groupByTopic } from '../../../cluster/group-by.js';
import type { TopicPartition } from '../../../cluster/partition-errors.js';
import type { ConsumerGroupMetadata } from '../../../offsets/group-metadata.js';
import type { RebalanceProtocol } from '../../assignors/assignor.js';
import type { GroupTransport } from '../coordinator-link.js';
import { MemberNotStableError } from '../errors.js';
import { HeartbeatTimer } from '../heartbeat-timer.js';
import type { LeaveOptions, MembershipState } from '../membership.js';
import { MembershipBase } from '../membership-base.js';
import type { ResolvedOptions } from '../options.js';
import { type Recovery, recoveryFor } from '../recovery.js';
import { SubscriptionResolver } from '../subscription-resolver.js';
import { minus } from '../topic-partitions.js';
import { ClassicHeartbeat } from './classic-heartbeat.js';
import { type Generation, type JoinResult, joinAndSync, NO_GENERATION, resetGeneration } from './join-sync.js';
import { computeGroupAssignment } from './leader.js';
import { leaveClassicGroup } from './leave-group.js';
import { MetadataWatch } from './metadata-watch.js';
import { assignorNamed, chooseRebalanceProtocol, joinGroupProtocols } from './rebalance-protocol.js';

/**
 * A member of a classic consumer group (JoinGroup / SyncGroup / Heartbeat / LeaveGroup), following Java's
 * ConsumerCoordinator: one sequential loop runs rebalances and every listener call; heartbeats run on their own
 * timer and only tell the loop what to do. Eager members give up everything before rejoining; cooperative ones
 * keep what they own, revoke only what moved, and rejoin so it can be handed on (KIP-429).
 */
export class ClassicMembership extends MembershipBase {
  readonly protocol = 'classic' as const;
  readonly rebalanceProtocol: RebalanceProtocol;
  private generation: Generation = NO_GENERATION;
  /** `stable` from a successful SyncGroup until the membership is lost or a new JoinGroup goes out. */
  private phase: 'unjoined' | 'joining' | 'stable' = 'unjoined';
  private rejoinReason: string | null = 'initial join';
  private everJoined = false;
  private leaveForPoll = false;
  private failures = 0;
  private lastReported: string | undefined;
  private subscriptionVersion = 0;
  private resolver: SubscriptionResolver | undefined;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly beats: ClassicHeartbeat;
  private readonly heartbeat: HeartbeatTimer;
  private readonly watch: MetadataWatch;

  constructor(
    options: ResolvedOptions,
    private readonly transport: GroupTransport,
  ) {
    super(options);
    this.rebalanceProtocol = chooseRebalanceProtocol(options.assignors);
    this.beats = new ClassicHeartbeat(transport, options, {
      stableGeneration: () => (this.phase === 'stable' ? this.generation : undefined),
      onHeartbeatError: (sent, recovery) => this.onMembershipError(sent, recovery),
    });
    // Stops for good once the membership is left or failed, so a fenced member neither beats nor holds the process.
    this.heartbeat = new HeartbeatTimer(() => (this.done ? Promise.resolve(null) : this.beats.beat()));
    this.watch = new MetadataWatch(transport, options.metadataRefreshIntervalMs);
  }

  get memberId(): string {
    return this.generation.memberId;
  }

  get generationId(): number {
    return this.generation.generationId;
  }

  get state(): MembershipState {
    if (this.lifecycle !== 'active') return this.lifecycle;
    if (this.phase === 'stable') return this.rejoinReason === null ? 'stable' : 'rebalancing';
    return this.everJoined && this.generation.memberId !== '' ? 'rebalancing' : 'joining';
  }

  commitContext(): ConsumerGroupMetadata {
    this.throwIfDone();
    if (this.phase !== 'stable' || this.generation.generationId < 0) {
      throw new MemberNotStableError(this.groupId, this.state);
    }
    return {
      groupId: this.groupId,
      memberId: this.generation.memberId,
      generationId: this.generation.generationId,
      groupInstanceId: this.options.groupInstanceId,
    };
  }

  requestRejoin(reason: string): void {
    if (this.lifecycle !== 'active') return;
    this.rejoinReason ??= reason;
    this.wake.notify();
  }

  /**
   * Java's OffsetCommitResponseHandler: REBALANCE_IN_PROGRESS only rejoins; UNKNOWN_MEMBER_ID and
   * ILLEGAL_GENERATION reset the generation (the partitions are lost, so nothing of them is committed) and
   * rejoin, but only while the member still holds the generation the commit was sent under: a member that has
   * rejoined since keeps its new generation. FENCED_INSTANCE_ID under the current generation ends the member.
   */
  commitRefused(error: unknown, sentUnder: ConsumerGroupMetadata): void {
    if (this.lifecycle !== 'active') return;
    const recovery = recoveryFor(error, this.groupId, this.options.groupInstanceId);
    if (recovery.kind === 'retry') {
      this.requestRejoin('a commit found the group rebalancing');
      return;
    }
    const { generationId, memberId } = this.generation;
    if (sentUnder.generationId !== generationId || sentUnder.memberId !== memberId) return;
    this.onMembershipError(this.generation, recovery);
  }

  protected async leaveGroup(options: LeaveOptions): Promise<void> {
    this.closing.abort();
    this.wake.notify();
    await this.loopDone;
    await this.heartbeat.stop();
    if (this.fatal === undefined) {
      if (this.phase === 'stable' && this.generation.generationId >= 0) await this.revoke(this.owned);
      else await this.lose(this.owned);
      const dynamic = this.options.groupInstanceId === null;
      if (this.generation.memberId !== '' && (dynamic || options.evenIfStatic === true)) {
        await leaveClassicGroup(this.transport, this.options, this.generation.memberId, options.reason);
      }
    }
    this.phase = 'unjoined';
    this.generation = NO_GENERATION;
    await this.transport.close();
  }

  protected run(): void {
    this.subscriptionChanged();
    this.heartbeat.start(this.options.heartbeatIntervalMs);
    this.loopDone = this.loop().catch((err: unknown) => this.fail(err as Error));
  }

  protected subscriptionChanged(): void {
    this.resolver = new SubscriptionResolver(this.subscription!, (q) => this.transport.metadata(q));
    this.subscriptionVersion++;
    this.rejoinReason ??= 'the subscription changed';
    this.wake.notify();
  }

  protected onPollTimeout(): void {
    if (this.phase !== 'stable') {
      // Mid-rebalance the broker's rebalance timeout (the max poll interval too) governs; look again later.
      this.pollTimer.start();
      return;
    }
    this.leaveForPoll = true;
    this.wake.notify();
  }

  protected rejoinAfterPollTimeout(): void {
    this.rejoinReason ??= 'the application polled again after a poll timeout';
    this.wake.notify();
  }

  private async loop(): Promise<void> {
    while (!this.done) {
      if (this.leaveForPoll) await this.leaveAfterPollTimeout();
      else if (this.pollTimedOut !== undefined) await this.wake.wait(60_000);
      else if (this.phase !== 'stable' || this.rejoinReason !== null) await this.rebalance();
      else if (this.watch.msUntilDue() > 0) await this.wake.wait(this.watch.msUntilDue());
      else {
        const reason = await this.watch.check(this.resolver!);
        if (reason !== undefined) this.requestRejoin(reason);
      }
    }
  }

  private async rebalance(): Promise<void> {
    const reason = this.rejoinReason ?? 'rejoining';
    const { lost, revoked } = await this.prepareJoin();
    if (this.done || this.leaveForPoll) return;
    const version = this.subscriptionVersion;
    this.phase = 'joining';
    let result: JoinResult;
    let snapshot: Map<string, number> | undefined;
    try {
      const topics = await this.resolver!.topics();
      result = await joinAndSync({
        transport: this.transport,
        options: this.options,
        memberId: this.generation.memberId,
        protocols: joinGroupProtocols(this.options.assignors, {
          topics,
          owned: this.owned,
          generationId: this.generation.generationId,
          rackId: this.options.rackId,
        }),
        reason,
        signal: this.closing.signal,
        onGeneration: (g) => {
          this.generation = g;
        },
        lead: async (protocolName, members, skip) => {
          const assignor = assignorNamed(this.options.assignors, protocolName, this.groupId);
          const metadata = (q: Parameters<GroupTransport['metadata']>[0]) => this.transport.metadata(q);
          const computed = await computeGroupAssignment(assignor, this.rebalanceProtocol, members, metadata, skip);
          snapshot = computed.snapshot;
          return computed.assignments;
        },
      });
      this.watch.reset(topics, snapshot);
    } catch (err) {
      if (!this.done) await this.recover(recoveryFor(err, this.groupId, this.options.groupInstanceId));
      return;
    }
    this.failures = 0;
    this.lastReported = undefined;
    this.phase = 'stable';
    this.everJoined = true;
    this.rejoinReason = version === this.subscriptionVersion ? null : 'the subscription changed meanwhile';
    this.beats.resetSession();
    await this.applyAssignment(result, lost, revoked);
  }

  /** Java's onJoinPrepare: all lost if the generation was reset; eager: revoke all; cooperative: keep them. */
  private async prepareJoin(): Promise<{ lost: TopicPartition[]; revoked: TopicPartition[] }> {
    const owned = this.owned;
    if (owned.length === 0) return { lost: [], revoked: [] };
    if (this.generation.generationId < 0 || this.generation.memberId === '') {
      await this.lose(owned);
      return { lost: owned, revoked: [] };
    }
    if (this.rebalanceProtocol === 'cooperative') return { lost: [], revoked: [] };
    await this.revoke(owned);
    return { lost: [], revoked: owned };
  }

  /** Java's onJoinComplete. */
  private async applyAssignment(result: JoinResult, lost: TopicPartition[], revokedBefore: TopicPartition[]) {
    const { generation, assignment } = result;
    assignorNamed(this.options.assignors, generation.protocolName ?? '', this.groupId).onAssignment?.(
      { partitions: groupByTopic(assignment.partitions), userData: assignment.userData },
      {
        generationId: generation.generationId,
        memberId: generation.memberId,
        groupInstanceId: this.options.groupInstanceId,
      },
    );
    const revoked = minus(this.owned, assignment.partitions);
    const added = minus(assignment.partitions, this.owned);
    if (revoked.length > 0) {
      await this.revoke(revoked);
      // What was revoked goes to its new owner in the next rebalance.
      this.rejoinReason ??= 'partitions were revoked and must be reassigned';
    }
    await this.assign(added);
    this.emitRebalance({
      memberId: generation.memberId,
      generationId: generation.generationId,
      leader: result.leader,
      assigned: added,
      revoked: [...revokedBefore, ...revoked],
      lost,
    });
    this.joined();
  }

  private async recover(recovery: Recovery): Promise<void> {
    this.phase = 'unjoined';
    this.rejoinReason ??= 'retrying a failed rebalance';
    switch (recovery.kind) {
      case 'fatal':
        this.fail(recovery.error);
        return;
      case 'fenced':
      case 'stale-generation':
        this.generation = resetGeneration(this.generation, recovery.kind);
        return;
      case 'report':
        if (recovery.error.name === 'GroupMaxSizeReachedError') this.generation = NO_GENERATION;
        // Reported once per run of the same failure, not at every retry.
        if (this.lastReported !== recovery.error.message) this.report(recovery.error);
        this.lastReported = recovery.error.message;
        await this.pause(this.options.retryBackoff.maxMs);
        return;
      case 'retry':
        if (recovery.backoff) await this.pause(backoffDelay(++this.failures, this.options.retryBackoff));
    }
  }

  /** A heartbeat (or a commit) learned the member must rejoin; ignored if the generation has moved on since. */
  private onMembershipError(sent: Generation, recovery: Recovery): void {
    if (sent !== this.generation || this.phase !== 'stable') return;
    switch (recovery.kind) {
      case 'retry':
        this.rejoinReason ??= 'the group is rebalancing';
        break;
      case 'fenced':
      case 'stale-generation':
        this.phase = 'unjoined';
        this.generation = resetGeneration(this.generation, recovery.kind);
        break;
      case 'fatal':
        this.fail(recovery.error);
        break;
      case 'report':
        this.report(recovery.error);
        break;
    }
    this.wake.notify();
  }

  /** Java's handlePollTimeoutExpiry: leave (dynamic members only), drop the generation, lose the partitions. */
  private async leaveAfterPollTimeout(): Promise<void> {
    this.leaveForPoll = false;
    const memberId = this.generation.memberId;
    this.phase = 'unjoined';
    this.generation = NO_GENERATION;
    this.rejoinReason = null;
    if (memberId !== '' && this.options.groupInstanceId === null) {
      await leaveClassicGroup(this.transport, this.options, memberId, 'consumer poll timeout has expired');
    }
    await this.losePartitionsForPollTimeout(memberId);
  }
}
