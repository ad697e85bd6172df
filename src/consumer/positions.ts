import { partitionKey, type TopicPartition } from '../cluster/partition-errors.js';
import type { ConsumerRecord } from './consumer-record.js';
import { PartitionNotAssignedError } from './errors.js';
import { IllegalTransitionError, nextPhase, type PartitionPhase, type PartitionTransition } from './partition-phase.js';

/**
 * Where each assigned partition is: the consumer's answer to "what next?". The phase moves only through
 * PartitionState's methods, each one transition of the table in partition-phase.ts; the fetch loop, the
 * position resolver, the delivery iterators and the commit engine each move their own other fields.
 */

export type ResetStrategy = 'earliest' | 'latest';

export class PartitionState {
  readonly key: string;
  private current: PartitionPhase = 'initializing';
  /** For `resetting`: where to. Undefined means "by the out-of-range policy", from `position`. */
  private resetStrategy: ResetStrategy | undefined;
  /** The next offset to hand to the application (the Java consumer's `position`). -1 until known. */
  position = -1n;
  /** Leader epoch of the record before `position`; -1 when unknown. */
  positionEpoch = -1;
  /** The next offset to fetch: `position` plus whatever is buffered ahead of it. */
  fetchOffset = -1n;
  /** Leader epoch of the last fetched batch: the Fetch request's lastFetchedEpoch (KIP-320). */
  fetchEpoch = -1;
  /** Bumped by every seek and reset: data fetched for an older generation is dropped, never delivered. */
  generation = 0;
  /**
   * Bumped only when the position is moved on purpose (seek, reset, truncation fix), each of which sets the
   * processed mark itself: a batch delivered before such a move must not mark anything processed afterwards.
   */
  moves = 0;
  private pausedByApplication = false;
  /** A fetch naming this partition is on the wire (one at a time, whichever broker it goes to). */
  inFlight = false;
  /** Fetched bytes hold a corrupt batch: fetch no further until delivery reaches it and fails the partition. */
  stalled = false;
  /** A processBatches lane holds enough of this partition's batches: fetch no further until it works them off. */
  backlogged = false;
  /** No fetch before this time (ms): backoff after a partition error. */
  retryAt = 0;
  /** Why the partition is `failed`; thrown to the application until it seeks. */
  error: Error | undefined;

  /** The next offset after the last processed record, as commits store it; undefined before any. */
  private processedOffset: bigint | undefined;
  /** Set instead of `processedOffset` while records are acked one by one, so no BigInt is made per record. */
  private processedRecord: ConsumerRecord | undefined;
  processedEpoch = -1;
  /** The user moved the position backwards: the next commit may store a lower offset than the last. */
  allowBackward = false;
  /** What the offset store holds, as far as this consumer knows (loaded, or committed by it). */
  committed: bigint | undefined;
  committedEpoch = -1;

  highWatermark = -1n;
  lastStableOffset = -1n;
  logStartOffset = -1n;
  /** The follower the leader told us to read from (KIP-392), and until when that advice holds. */
  preferredReplica = -1;
  preferredReplicaUntil = 0;
  /** The leader epoch metadata gave when the partition was last routed; a rise means a leader change. */
  leaderEpoch = -1;

  constructor(
    readonly topic: string,
    readonly partition: number,
  ) {
    this.key = partitionKey(topic, partition);
  }

  /** Where the partition is; changed only by the transitions below (partition-phase.ts lists them). */
  get phase(): PartitionPhase {
    return this.current;
  }

  /** For `resetting`: where to. Undefined means "by the out-of-range policy", from `position`. */
  get resetTo(): ResetStrategy | undefined {
    return this.resetStrategy;
  }

  /** Paused by the application: kept, not fetched or delivered until resumed. */
  get paused(): boolean {
    return this.pausedByApplication;
  }

  get isFetchable(): boolean {
    return (
      this.current === 'fetching' && !this.pausedByApplication && !this.inFlight && !this.stalled && !this.backlogged
    );
  }

  /** A lookup found where to go on (stored offset, a reset's answer, a truncation's fix): fetch from there. */
  moveTo(offset: bigint, leaderEpoch: number): void {
    this.step('found');
    this.move(offset, leaderEpoch);
  }

  /** The lookup confirmed the position as it is: fetch on from it. */
  confirm(): void {
    this.step('confirm');
  }

  /** The application's seek: with a leader epoch the position is validated first (KIP-320), as Java's seek does. */
  seek(offset: bigint, leaderEpoch: number): void {
    this.step(leaderEpoch >= 0 ? 'seekValidated' : 'seek');
    this.move(offset, leaderEpoch);
  }

  /** The application's seekToBeginning/End: a deliberate move whose target a ListOffsets lookup will give. */
  requestReset(to: ResetStrategy): void {
    this.step('requestReset');
    this.move(this.position, this.positionEpoch);
    this.resetStrategy = to;
  }

  /**
   * The position fell out of the log: look it up again, `to` the given end or (undefined) by the out-of-range
   * policy. Not a deliberate move: a batch in hand may still mark itself processed.
   */
  awaitReset(to: ResetStrategy | undefined): void {
    this.step('awaitReset');
    this.rewind();
    this.resetStrategy = to;
  }

  /** The leader changed: confirm the position survived (KIP-320) before fetching on; drops what was fetched. */
  awaitValidation(): void {
    this.step('awaitValidation');
    this.rewind();
  }

  /** Stops the partition until the application seeks. */
  fail(error: Error): void {
    this.step('fail');
    this.generation++;
    this.error = error;
  }

  /**
   * The group revoked the partition or the application unassigned it: not fetched or delivered from now on,
   * and any lookup or fetch still out for it is void (a new generation), as if it were already removed.
   */
  revoke(): void {
    this.step('revoke');
    this.generation++;
  }

  /**
   * Assigned again while this partition's earlier state is still revoking (its handlers may still finish
   * batches): wait, unfetched, for `takeOver`, so nothing is read twice.
   */
  reclaim(): void {
    this.step('reclaim');
  }

  /**
   * The previous state's handlers settled: go on from what they processed, which is also what this state
   * commits next (with the previous state's view of the store, so a commit never goes backwards silently); with
   * nothing processed, look the stored offset up as a fresh assignment does.
   */
  takeOver(previous: PartitionState): void {
    const done = previous.processed();
    if (done === undefined) {
      this.step('lookUp');
      return;
    }
    this.step('takeOver');
    this.move(done.offset, done.leaderEpoch);
    this.inheritMarks(previous);
  }

  /**
   * Takes the previous state's processed mark and view of the store as its own (what this state commits next),
   * without moving: a takeover, or a state dropped before it took over, whose drop commits what was processed.
   */
  inheritMarks(previous: PartitionState): void {
    const done = previous.processed();
    if (done !== undefined) this.markProcessed(done.offset, done.leaderEpoch);
    this.committed = previous.committed;
    this.committedEpoch = previous.committedEpoch;
    this.allowBackward = previous.allowBackward;
  }

  /** Pauses the partition; false when it already was. What was fetched ahead is dropped, fetched again later. */
  pause(): boolean {
    this.step('pause');
    if (this.pausedByApplication) return false;
    this.pausedByApplication = true;
    this.rewind();
    return true;
  }

  resume(): void {
    this.step('pause');
    this.pausedByApplication = false;
  }

  /** Takes `transition` from the current phase, or throws when the table does not allow it from there. */
  private step(transition: PartitionTransition): void {
    const next = nextPhase(this.current, transition);
    if (next === undefined) throw new IllegalTransitionError(this.topic, this.partition, this.current, transition);
    this.current = next;
  }

  /** Moves the position on purpose (a seek, a reset, a truncation fix): everything fetched ahead is void. */
  private move(offset: bigint, leaderEpoch: number): void {
    this.generation++;
    this.moves++;
    this.position = offset;
    this.positionEpoch = leaderEpoch;
    this.fetchOffset = offset;
    this.fetchEpoch = leaderEpoch;
    this.error = undefined;
    this.resetStrategy = undefined;
    this.retryAt = 0;
    this.stalled = false;
  }

  /** Drops what was fetched ahead of the position, so the next fetch starts at the position again. */
  rewind(): void {
    this.generation++;
    this.fetchOffset = this.position;
    this.fetchEpoch = this.positionEpoch;
    this.stalled = false;
  }

  /** Goes back to `offset` (records handed out but not processed), keeping the processed mark as it is. */
  rewindTo(offset: bigint, leaderEpoch: number): void {
    this.position = offset;
    this.positionEpoch = leaderEpoch;
    this.rewind();
  }

  /** The processed mark: the offset after the last processed record and that record's leader epoch. */
  processed(): { offset: bigint; leaderEpoch: number } | undefined {
    if (this.processedRecord !== undefined) {
      this.processedOffset = this.processedRecord.nextOffset();
      this.processedRecord = undefined;
    }
    return this.processedOffset === undefined
      ? undefined
      : { offset: this.processedOffset, leaderEpoch: this.processedEpoch };
  }

  /** Everything before `offset` is processed (a finished batch, or a seek that says where to go on from). */
  markProcessed(offset: bigint, leaderEpoch: number): void {
    this.processedRecord = undefined;
    this.processedOffset = offset;
    this.processedEpoch = leaderEpoch;
  }

  /** `record` and everything before it are processed; kept as the record until an offset is needed. */
  markRecordProcessed(record: ConsumerRecord): void {
    this.processedRecord = record;
    this.processedEpoch = record.leaderEpoch;
  }

  /** Like markRecordProcessed, but never moves the mark backwards (explicit acks can come in any order). */
  ackUpTo(record: ConsumerRecord): void {
    const next = record.nextOffset();
    const current = this.processed();
    if (current === undefined || next > current.offset) this.markProcessed(next, record.leaderEpoch);
  }

  /** The offsets between the position and the end of the log, as the broker last reported it. */
  lag(readCommitted: boolean): bigint | undefined {
    const end = readCommitted && this.lastStableOffset >= 0n ? this.lastStableOffset : this.highWatermark;
    if (end < 0n || this.position < 0n) return undefined;
    return end > this.position ? end - this.position : 0n;
  }
}

/** The assigned partitions and their states, by `topic\0partition` and by topic. */
export class Positions {
  private readonly states = new Map<string, PartitionState>();
  private readonly byTopic = new Map<string, Map<number, PartitionState>>();

  get size(): number {
    return this.states.size;
  }

  get(topic: string, partition: number): PartitionState | undefined {
    return this.byTopic.get(topic)?.get(partition);
  }

  /** The state of an assigned partition; throws naming the partition when it is not assigned. */
  require(tp: TopicPartition): PartitionState {
    const state = this.get(tp.topic, tp.partition);
    if (state === undefined) throw new PartitionNotAssignedError(tp);
    return state;
  }

  has(key: string): boolean {
    return this.states.has(key);
  }

  add(topic: string, partition: number): PartitionState {
    const existing = this.get(topic, partition);
    if (existing !== undefined) return existing;
    const state = new PartitionState(topic, partition);
    this.states.set(state.key, state);
    let partitions = this.byTopic.get(topic);
    if (partitions === undefined) {
      partitions = new Map();
      this.byTopic.set(topic, partitions);
    }
    partitions.set(partition, state);
    return state;
  }

  remove(topic: string, partition: number): PartitionState | undefined {
    const state = this.get(topic, partition);
    if (state === undefined) return undefined;
    this.states.delete(state.key);
    const partitions = this.byTopic.get(topic)!;
    partitions.delete(partition);
    if (partitions.size === 0) this.byTopic.delete(topic);
    // Anything still holding the state (a fetch in flight, a buffered chunk) sees a new generation and drops it.
    state.generation++;
    return state;
  }

  all(): IterableIterator<PartitionState> {
    return this.states.values();
  }

  topics(): IterableIterator<string> {
    return this.byTopic.keys();
  }

  list(): TopicPartition[] {
    return [...this.states.values()].map(({ topic, partition }) => ({ topic, partition }));
  }
}
