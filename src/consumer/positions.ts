import { partitionKey, type TopicPartition } from '../cluster/partition-errors.js';
import type { ConsumerRecord } from './consumer-record.js';
import { PartitionNotAssignedError } from './errors.js';

/**
 * Where each assigned partition is: the consumer's answer to "what next?". The states live here; the fetch
 * loop, the position resolver, the delivery iterators and the commit engine each move their own fields.
 */

export type PartitionPhase =
  /** Waiting for the stored (committed) offset to be loaded, validated and range-checked. */
  | 'initializing'
  /** Waiting for a ListOffsets lookup: a seekToBeginning/End, or an auto reset after OFFSET_OUT_OF_RANGE. */
  | 'resetting'
  /** Waiting for OffsetForLeaderEpoch to confirm the position still exists after a leader change (KIP-320). */
  | 'validating'
  /** Has a valid position; fetched whenever not paused. */
  | 'fetching'
  /** Stopped by an error the application must act on (seek, or unassign); `error` says which. */
  | 'failed'
  /** Being revoked by the group: no longer fetched or delivered, kept only until its commits are flushed. */
  | 'revoking';

export type ResetStrategy = 'earliest' | 'latest';

export class PartitionState {
  readonly key: string;
  phase: PartitionPhase = 'initializing';
  /** For `resetting`: where to. Undefined means "by the out-of-range policy", from `position`. */
  resetTo: ResetStrategy | undefined;
  /** Set by an automatic correction so `resetting` can report what it skipped or re-read. */
  resetReason: 'out-of-range' | undefined;
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
  paused = false;
  /** A fetch naming this partition is on the wire (one at a time, whichever broker it goes to). */
  inFlight = false;
  /** Fetched bytes hold a corrupt batch: fetch no further until delivery reaches it and fails the partition. */
  stalled = false;
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

  get isFetchable(): boolean {
    return this.phase === 'fetching' && !this.paused && !this.inFlight && !this.stalled;
  }

  /** Moves the position (a seek, a reset, a truncation fix): everything fetched ahead is void. */
  moveTo(offset: bigint, leaderEpoch: number, phase: PartitionPhase = 'fetching'): void {
    this.generation++;
    this.moves++;
    this.position = offset;
    this.positionEpoch = leaderEpoch;
    this.fetchOffset = offset;
    this.fetchEpoch = leaderEpoch;
    this.phase = phase;
    this.error = undefined;
    this.resetTo = undefined;
    this.resetReason = undefined;
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

  /** Stops the partition until the application seeks. */
  fail(error: Error): void {
    this.generation++;
    this.phase = 'failed';
    this.error = error;
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
