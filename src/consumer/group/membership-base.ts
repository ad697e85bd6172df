import { EventEmitter } from 'node:events';
import { sleep } from '../../cluster/backoff.js';
import type { TopicPartition } from '../../cluster/partition-errors.js';
import type { ConsumerGroupMetadata } from '../../offsets/group-metadata.js';
import {
  GroupMembershipError,
  MaxPollIntervalExceededError,
  MembershipClosedError,
  RebalanceListenerError,
} from './errors.js';
import type {
  GroupMembership,
  GroupProtocol,
  LeaveOptions,
  MembershipEvents,
  MembershipState,
  RebalanceEvent,
  RebalanceListener,
  Subscription,
} from './membership.js';
import type { ResolvedOptions } from './options.js';
import { checkSubscription } from './options.js';
import { PollTimer } from './poll-timer.js';
import { minus, sortPartitions, union } from './topic-partitions.js';

/**
 * What both protocols share: the partitions owned and the listener calls that change them, the errors waiting
 * for the application's next poll, the max-poll-interval clock, and the promise start() returns.
 *
 * Subclasses run every listener call from one sequential loop, so callbacks never overlap.
 */
export abstract class MembershipBase extends EventEmitter<MembershipEvents> implements GroupMembership {
  abstract readonly protocol: GroupProtocol;
  readonly groupId: string;
  protected owned: TopicPartition[] = [];
  protected listener: RebalanceListener = {};
  protected subscription: Subscription | undefined;
  /** Where the membership is in its life; `state` refines `active` per protocol. */
  protected lifecycle: 'idle' | 'active' | 'left' | 'failed' = 'idle';
  protected fatal: Error | undefined;
  /** Set when the member left for want of polls; cleared by the next notePoll, which rejoins. */
  protected pollTimedOut: MaxPollIntervalExceededError | undefined;
  protected readonly pollTimer: PollTimer;
  /** Aborted by leave(): cuts short whatever the member's loop is waiting for (a parked JoinGroup, a backoff). */
  protected readonly closing = new AbortController();
  /** Wakes the member's loop when a heartbeat, a commit or the application asks for something. */
  protected readonly wake = new Wakeup();
  private readonly pending: Error[] = [];
  private readonly firstJoin = deferred();
  private leaving: Promise<void> | undefined;

  constructor(protected readonly options: ResolvedOptions) {
    super();
    this.groupId = options.groupId;
    this.pollTimer = new PollTimer(options.maxPollIntervalMs, () => this.onPollTimeout());
    // start() may be awaited late, or not at all when the caller only watches events.
    this.firstJoin.promise.catch(() => {});
  }

  abstract get state(): MembershipState;
  abstract get memberId(): string;
  abstract get generationId(): number;
  abstract commitContext(): ConsumerGroupMetadata;
  abstract requestRejoin(reason: string): void;
  abstract commitRefused(error: unknown, sentUnder: ConsumerGroupMetadata): void;
  /** Leaves the group (the subclass's part of leave(), run once). */
  protected abstract leaveGroup(options: LeaveOptions): Promise<void>;
  /** Begins joining; called once by start(). */
  protected abstract run(): void;
  /** The subscription changed: rejoin (classic) or tell the coordinator (KIP-848). */
  protected abstract subscriptionChanged(): void;
  /** The application is back after a poll timeout: join again. */
  protected abstract rejoinAfterPollTimeout(): void;
  /** No poll within max poll interval: leave the group and give up the partitions. */
  protected abstract onPollTimeout(): void;

  async start(subscription: Subscription, listener: RebalanceListener = {}): Promise<void> {
    if (this.lifecycle !== 'idle') throw new GroupMembershipError(this.groupId, 'start() was already called');
    checkSubscription(subscription);
    this.subscription = subscription;
    this.listener = listener;
    this.lifecycle = 'active';
    this.run();
    await this.firstJoin.promise;
  }

  /** Runs once however often it is called; a membership that never started is just marked left. */
  leave(options: LeaveOptions = {}): Promise<void> {
    this.leaving ??= (async () => {
      this.pollTimer.stop();
      try {
        if (this.lifecycle !== 'idle') await this.leaveGroup(options);
      } finally {
        if (this.lifecycle !== 'failed') this.lifecycle = 'left';
        this.firstJoin.reject(new MembershipClosedError(this.groupId));
      }
    })();
    return this.leaving;
  }

  /** leave() has been called. */
  protected get isLeaving(): boolean {
    return this.leaving !== undefined;
  }

  assignment(): TopicPartition[] {
    return this.owned.map(({ topic, partition }) => ({ topic, partition }));
  }

  notePoll(): void {
    if (this.fatal !== undefined) throw this.fatal;
    if (this.lifecycle === 'left') throw new MembershipClosedError(this.groupId);
    if (this.lifecycle === 'active') this.pollTimer.touch();
    const timedOut = this.pollTimedOut;
    if (timedOut !== undefined) {
      this.pollTimedOut = undefined;
      this.pollTimer.start();
      this.rejoinAfterPollTimeout();
      throw timedOut;
    }
    const next = this.pending.shift();
    if (next !== undefined) throw next;
  }

  subscribe(subscription: Subscription): void {
    checkSubscription(subscription);
    this.throwIfDone();
    this.subscription = subscription;
    if (this.lifecycle === 'active') this.subscriptionChanged();
  }

  /** Runs onRevoked while `partitions` are still owned, then drops them. */
  protected async revoke(partitions: TopicPartition[]): Promise<void> {
    if (partitions.length === 0) return;
    await this.callListener('onRevoked', partitions);
    this.owned = minus(this.owned, partitions);
  }

  /** Runs onAssigned, then adds `partitions` to what is owned (and fetched). */
  protected async assign(partitions: TopicPartition[]): Promise<void> {
    await this.callListener('onAssigned', partitions);
    this.owned = union(this.owned, partitions);
  }

  /** Drops `partitions` at once (they may be someone else's already), then runs onLost. */
  protected async lose(partitions: TopicPartition[]): Promise<void> {
    if (partitions.length === 0) return;
    this.owned = minus(this.owned, partitions);
    await this.callListener('onLost', partitions);
  }

  protected emitRebalance(event: Omit<RebalanceEvent, 'protocol' | 'assignment'>): void {
    this.emit('rebalance', { ...event, protocol: this.protocol, assignment: sortPartitions(this.owned) });
  }

  /**
   * The end of a poll timeout, shared by both protocols once each has left the group its way: the partitions
   * are lost (another member may be reading them already), and the next notePoll() says so and rejoins.
   */
  protected async losePartitionsForPollTimeout(memberId: string): Promise<void> {
    const lost = this.owned;
    const error = new MaxPollIntervalExceededError(this.groupId, this.options.maxPollIntervalMs, lost);
    this.pollTimedOut = error;
    await this.lose(lost);
    this.emitRebalance({ memberId, generationId: -1, assigned: [], revoked: [], lost });
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  /** An error the application must hear of: the `error` event now, and the next notePoll(). */
  protected report(err: Error): void {
    this.pending.push(err);
    // An 'error' event without a listener would throw out of the emitter and crash the process.
    if (this.listenerCount('error') > 0) this.emit('error', err);
  }

  /** Ends the membership: every later call, and start() if it is still waiting, throws `err`. */
  protected fail(err: Error): void {
    if (this.fatal !== undefined) return;
    this.fatal = err;
    this.lifecycle = 'failed';
    this.pollTimer.stop();
    this.firstJoin.reject(err);
    if (this.listenerCount('error') > 0) this.emit('error', err);
  }

  /** The first assignment has been received and onAssigned settled. */
  protected joined(): void {
    if (!this.pollTimer.isRunning && this.pollTimedOut === undefined) this.pollTimer.start();
    this.firstJoin.resolve();
  }

  /** The loop must stop: leaving, or failed. */
  protected get done(): boolean {
    return this.closing.signal.aborted || this.fatal !== undefined;
  }

  /** Waits `ms`, less if the membership is left meanwhile. */
  protected async pause(ms: number): Promise<void> {
    try {
      await sleep(ms, this.closing.signal);
    } catch {
      // Leaving.
    }
  }

  protected throwIfDone(): void {
    if (this.fatal !== undefined) throw this.fatal;
    if (this.lifecycle === 'left') throw new MembershipClosedError(this.groupId);
  }

  private async callListener(
    callback: 'onAssigned' | 'onRevoked' | 'onLost',
    partitions: TopicPartition[],
  ): Promise<void> {
    const fn = this.listener[callback];
    if (fn === undefined) return;
    try {
      await this.pollTimer.busy(async () => fn.call(this.listener, sortPartitions(partitions)));
    } catch (err) {
      this.report(new RebalanceListenerError(this.groupId, callback, err));
    }
  }
}

/** A wake-up for a sleeping loop: `wait` resolves on `notify`, after `ms`, or at once if notified meanwhile. */
export class Wakeup {
  private waiter: (() => void) | undefined;
  private notified = false;

  notify(): void {
    this.notified = true;
    this.waiter?.();
  }

  wait(ms: number): Promise<void> {
    if (this.notified) {
      this.notified = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiter = undefined;
        this.notified = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiter = done;
    });
  }
}

function deferred(): { promise: Promise<void>; resolve(): void; reject(err: unknown): void } {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
