import { randomBytes } from 'node:crypto';
import { backoffDelay } from '../../../cluster/backoff.js';
import type { ConsumerGroupMetadata } from '../../../offsets/group-metadata.js';
import type { GroupTransport } from '../coordinator-link.js';
import { MemberNotStableError } from '../errors.js';
import { HeartbeatTimer } from '../heartbeat-timer.js';
import type { LeaveOptions, MembershipState } from '../membership.js';
import { MembershipBase } from '../membership-base.js';
import type { ResolvedOptions } from '../options.js';
import { SubscriptionResolver, sameTopics } from '../subscription-resolver.js';
import { ConsumerHeartbeat, type HeartbeatingMember } from './consumer-heartbeat.js';
import { JOIN_EPOCH, LEAVE_EPOCH, STATIC_LEAVE_EPOCH } from './heartbeat-request.js';
import { type IdPartitions, OwnedByTopicId, planReconciliation } from './reconciliation.js';
import { TopicIdNames } from './topic-ids.js';

/**
 * A member of a KIP-848 consumer group (ConsumerGroupHeartbeat): the coordinator computes assignments (with the
 * server-side assignor asked for) and hands each member its target in heartbeat responses; the member
 * reconciles (revoke, then assign, each awaited) and acknowledges by reporting what it owns in the next
 * heartbeat, sent at once. The member id is generated here (KIP-1082); the member epoch is what commits carry.
 * Heartbeats tick on their own timer at the interval the coordinator asks for; one sequential loop runs the
 * reconciliations and every listener call.
 */
export class ConsumerGroupMembership extends MembershipBase {
  readonly protocol = 'consumer' as const;
  private id = newMemberId();
  private memberEpoch = JOIN_EPOCH;
  private phase: 'joining' | 'member' | 'fenced' | 'stale' = 'joining';
  private target: IdPartitions[] | undefined;
  private reconciledTarget: IdPartitions[] | undefined;
  /** The last target a rebalance event was emitted for. */
  private reportedTarget: IdPartitions[] | undefined;
  private unresolvedSince = 0;
  private topics: string[] = [];
  private topicsChecked = 0;
  private leaveForPoll = false;
  private failures = 0;
  private resolver: SubscriptionResolver | undefined;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly owned848 = new OwnedByTopicId();
  private readonly beats: ConsumerHeartbeat;
  private readonly heartbeat: HeartbeatTimer;
  private readonly topicNames: TopicIdNames;

  constructor(
    options: ResolvedOptions,
    private readonly transport: GroupTransport,
  ) {
    super(options);
    this.beats = new ConsumerHeartbeat(transport, options, this.heartbeatingMember());
    this.heartbeat = new HeartbeatTimer(() => this.beats.beat());
    this.topicNames = new TopicIdNames(transport);
  }

  get memberId(): string {
    return this.id;
  }

  get generationId(): number {
    return this.phase === 'member' && this.memberEpoch > 0 ? this.memberEpoch : -1;
  }

  get state(): MembershipState {
    if (this.lifecycle !== 'active') return this.lifecycle;
    if (this.phase === 'member') return this.target === this.reconciledTarget ? 'stable' : 'rebalancing';
    return this.reconciledTarget === undefined ? 'joining' : 'rebalancing';
  }

  commitContext(): ConsumerGroupMetadata {
    this.throwIfDone();
    if (this.phase !== 'member' || this.memberEpoch <= 0) throw new MemberNotStableError(this.groupId, this.state);
    return {
      groupId: this.groupId,
      memberId: this.id,
      generationId: this.memberEpoch,
      groupInstanceId: this.options.groupInstanceId,
    };
  }

  /** The coordinator drives KIP-848 rebalances: this only heartbeats at once. */
  requestRejoin(_reason: string): void {
    if (this.lifecycle !== 'active') return;
    this.heartbeat.now();
  }

  /**
   * As Java's async consumer (CommitRequestManager and ConsumerMembershipManager): a refused commit does not
   * change the membership by itself. The heartbeat, sent at once, learns where the member stands: fenced or
   * removed (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID: the partitions are lost and it rejoins at epoch 0) or
   * a newer epoch (STALE_MEMBER_EPOCH: the commit engine sends the commit again under it).
   */
  commitRefused(_error: unknown, _sentUnder: ConsumerGroupMetadata): void {
    if (this.lifecycle !== 'active') return;
    this.heartbeat.now();
  }

  protected run(): void {
    this.subscriptionChanged();
    this.loopDone = this.loop().catch((err: unknown) => this.fail(err as Error));
  }

  protected subscriptionChanged(): void {
    this.resolver = new SubscriptionResolver(this.subscription!, (q) => this.transport.metadata(q));
    this.topicsChecked = 0;
    this.wake.notify();
  }

  protected onPollTimeout(): void {
    this.leaveForPoll = true;
    this.wake.notify();
  }

  protected rejoinAfterPollTimeout(): void {
    this.phase = 'joining';
    this.beats.reset();
    this.heartbeat.start(0);
  }

  protected async leaveGroup(options: LeaveOptions): Promise<void> {
    this.closing.abort();
    this.wake.notify();
    await this.loopDone;
    await this.heartbeat.stop();
    if (this.fatal === undefined) {
      if (this.phase === 'member' && this.memberEpoch > 0) await this.revoke(this.owned);
      else await this.lose(this.owned);
      this.owned848.clear();
      if (this.phase === 'member' || this.phase === 'joining') {
        const stay = this.options.groupInstanceId !== null && options.evenIfStatic !== true;
        await this.beats.leave(this.id, stay ? STATIC_LEAVE_EPOCH : LEAVE_EPOCH);
      }
    }
    this.memberEpoch = LEAVE_EPOCH;
    await this.transport.close();
  }

  private async loop(): Promise<void> {
    while (!this.done) {
      if (this.leaveForPoll) await this.leaveAfterPollTimeout();
      else if (this.phase === 'fenced') await this.rejoinAfterFence();
      else if (this.topicsDue()) await this.refreshTopics();
      else if (this.phase !== 'stale' && this.target !== undefined && this.target !== this.reconciledTarget) {
        await this.reconcile();
      } else await this.wake.wait(this.msUntilTopicsDue());
    }
  }

  /** The heartbeat's view of the member. */
  private heartbeatingMember(): HeartbeatingMember {
    return {
      snapshot: () =>
        (this.phase === 'joining' || this.phase === 'member') && this.resolver !== undefined && !this.done
          ? { memberId: this.id, memberEpoch: this.memberEpoch, topics: this.topics, owned: this.owned848.toRequest() }
          : undefined,
      current: (sentEpoch) => {
        if (this.done || (this.phase !== 'joining' && this.phase !== 'member')) return 'stop';
        // Fenced and rejoined while this was in flight: the answer is about an old epoch.
        return sentEpoch === this.memberEpoch;
      },
      accepted: (response) => {
        if (response.memberId !== null && response.memberId !== '') this.id = response.memberId;
        this.memberEpoch = response.memberEpoch;
        if (this.phase === 'joining') this.phase = 'member';
        if (response.assignment !== null) {
          this.target = response.assignment.topicPartitions;
          this.wake.notify();
        }
      },
      failed: (recovery) => {
        if (recovery.kind === 'fenced' || recovery.kind === 'stale-generation') this.fence();
        else if (recovery.kind === 'fatal') this.fail(recovery.error);
        else if (recovery.kind === 'report') this.report(recovery.error);
      },
    };
  }

  /** UNKNOWN_MEMBER_ID / FENCED_MEMBER_EPOCH: the loop gives the partitions up as lost and rejoins (epoch 0). */
  private fence(): void {
    if (this.phase === 'fenced') return;
    this.phase = 'fenced';
    this.wake.notify();
  }

  private async rejoinAfterFence(): Promise<void> {
    const lost = this.owned;
    this.owned848.clear();
    this.memberEpoch = JOIN_EPOCH;
    this.target = undefined;
    this.reconciledTarget = undefined;
    await this.lose(lost);
    if (lost.length > 0) this.emitRebalance({ memberId: this.id, generationId: 0, assigned: [], revoked: [], lost });
    if (this.done) return;
    this.phase = 'joining';
    this.beats.reset();
    this.heartbeat.start(0);
  }

  private async reconcile(): Promise<void> {
    const target = this.target!;
    const names = await this.namesFor(target);
    if (names === undefined) return;
    const plan = planReconciliation(this.owned848, target, names);
    await this.revoke(plan.revoked);
    this.owned848.remove(plan.revoked);
    if (this.target !== target || this.phase !== 'member') {
      // A newer target (or a fence) came during onRevoked: acknowledge what was revoked, then start over.
      this.heartbeat.now();
      return;
    }
    const first = this.reconciledTarget === undefined;
    if (plan.added.length > 0 || first) await this.assign(plan.added);
    for (const tp of plan.added) this.owned848.add(tp.topicId, tp.topic, tp.partition);
    if (plan.unresolved.length > 0) this.unresolvedSince ||= Date.now();
    else this.unresolvedSince = 0;
    // Unresolved topics keep the target "not reconciled", so the loop comes back once metadata may know them.
    if (plan.unresolved.length === 0) this.reconciledTarget = target;
    this.heartbeat.now();
    const added = plan.added.map(({ topic, partition }) => ({ topic, partition }));
    // Every new target is a completed step, also one that leaves this member's partitions as they were.
    if (plan.revoked.length > 0 || added.length > 0 || first || this.reportedTarget !== target) {
      this.reportedTarget = target;
      this.emitRebalance({
        memberId: this.id,
        generationId: this.memberEpoch,
        assigned: added,
        revoked: plan.revoked,
        lost: [],
      });
    }
    this.joined();
    if (plan.unresolved.length > 0) await this.pause(this.options.retryBackoff.maxMs);
  }

  private async namesFor(target: IdPartitions[]): Promise<Map<string, string> | undefined> {
    try {
      return await this.topicNames.resolve(
        target.map((t) => t.topicId),
        this.topics,
      );
    } catch {
      await this.pause(backoffDelay(++this.failures, this.options.retryBackoff));
      return undefined;
    }
  }

  private topicsDue(): boolean {
    return this.msUntilTopicsDue() === 0;
  }

  private msUntilTopicsDue(): number {
    if (this.topicsChecked === 0) return 0;
    if (!this.resolver?.isPattern) return 60_000;
    return Math.max(0, this.topicsChecked + this.options.metadataRefreshIntervalMs - Date.now());
  }

  /** Resolves the subscription (patterns against metadata); a change goes out with the next heartbeat, at once. */
  private async refreshTopics(): Promise<void> {
    try {
      const topics = await this.resolver!.topics();
      this.topicsChecked = Date.now();
      const changed = !sameTopics(topics, this.topics);
      this.topics = topics;
      if (!this.heartbeat.isRunning && this.phase === 'joining') this.heartbeat.start(0);
      else if (changed) this.heartbeat.now();
    } catch {
      await this.pause(backoffDelay(++this.failures, this.options.retryBackoff));
    }
  }

  /** No poll within max poll interval: leave as Java's member does (epoch -1, static -2), lose the partitions. */
  private async leaveAfterPollTimeout(): Promise<void> {
    this.leaveForPoll = false;
    this.phase = 'stale';
    await this.heartbeat.stop();
    await this.beats.leave(this.id, this.options.groupInstanceId !== null ? STATIC_LEAVE_EPOCH : LEAVE_EPOCH);
    this.owned848.clear();
    this.memberEpoch = JOIN_EPOCH;
    this.target = undefined;
    this.reconciledTarget = undefined;
    await this.losePartitionsForPollTimeout(this.id);
  }
}

/** A member id as Java's consumer makes one (`Uuid.randomUuid().toString()`): 16 random bytes, url-safe base64. */
export function newMemberId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    // Kafka never hands out an id starting with '-' (it would read as a command-line flag).
    if (!id.startsWith('-')) return id;
  }
}
