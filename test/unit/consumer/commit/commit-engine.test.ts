import { describe, expect, it } from 'vitest';
import { TidemarkError } from '../../../../codecs/errors.js';
import { ErrorCode } from '../../../../protocol/error-codes.js';
import { type KafkaError, kafkaError } from '../../../../protocol/kafka-error.js';
import { CommitEngine } from '../../../../src/consumer/commit-engine.js';
import { CommitFailedError } from '../../../../src/consumer/errors.js';
import type { CommitEvent, CommitRetryEvent, ConsumerEventMap } from '../../../../src/consumer/events.js';
import { MetricsRecorder } from '../../../../src/consumer/metrics.js';
import { Positions } from '../../../../src/consumer/positions.js';
import { BackwardCommitError } from '../../../../src/offsets/errors.js';
import type { ConsumerGroupMetadata } from '../../../../src/offsets/group-metadata.js';
import { MemoryOffsetStore } from '../../../../src/offsets/memory-offset-store.js';
import type { CommitOptions, OffsetCommit, OffsetStore } from '../../../../src/offsets/offset-store.js';

/** A memory store that records each call and can be told to fail the next ones. */
class ScriptedStore extends MemoryOffsetStore {
  readonly calls: { offsets: OffsetCommit[]; options?: CommitOptions }[] = [];
  failures: Error[] = [];
  /** Resolves the pending gate, if a test holds commits back. */
  gate: Promise<void> | undefined;

  override async commit(group: string, offsets: readonly OffsetCommit[], options?: CommitOptions): Promise<void> {
    this.calls.push({ offsets: [...offsets], options });
    await this.gate;
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    return super.commit(group, offsets, options);
  }
}

function setUp(store: OffsetStore = new ScriptedStore(), generation = 3) {
  const positions = new Positions();
  const events: { name: keyof ConsumerEventMap; payload: unknown }[] = [];
  const fenced: { error: KafkaError; sentUnder: ConsumerGroupMetadata }[] = [];
  const member = { groupId: 'g', generationId: generation, memberId: 'm', groupInstanceId: null };
  const engine = new CommitEngine({
    store,
    groupId: 'g',
    positions,
    generation: () => ({ ...member }),
    onRefused: (error, sentUnder) => fenced.push({ error, sentUnder }),
    metadata: undefined,
    retries: 3,
    emit: (name, payload) => events.push({ name, payload }),
    metrics: new MetricsRecorder(),
    signal: new AbortController().signal,
  });
  const p0 = positions.add('t', 0);
  const p1 = positions.add('t', 1);
  return { engine, positions, events, fenced, member, p0, p1, store: store as ScriptedStore };
}

const at = (offset: bigint) => [{ topic: 't', partition: 0, offset }];

describe('CommitEngine', () => {
  it('commits processed offsets only, with the current generation, and skips what is already stored', async () => {
    const { engine, p0, p1, store } = setUp();
    p0.markProcessed(10n, 2);
    expect(engine.processedOffsets()).toEqual([{ topic: 't', partition: 0, offset: 10n, leaderEpoch: 2 }]);
    await engine.commit(engine.processedOffsets(), 'manual', { wait: true });
    expect(store.calls[0]).toEqual({
      offsets: [{ topic: 't', partition: 0, offset: 10n, leaderEpoch: 2, metadata: undefined }],
      options: {
        allowBackward: false,
        generation: { groupId: 'g', generationId: 3, memberId: 'm', groupInstanceId: null },
      },
    });
    expect(p0.committed).toBe(10n);
    expect(engine.processedOffsets()).toEqual([]);
    expect(p1.committed).toBeUndefined();
  });

  it('runs one commit at a time, in the order asked, merging those still queued', async () => {
    const { engine, store } = setUp();
    let open!: () => void;
    store.gate = new Promise((resolve) => {
      open = resolve;
    });
    const first = engine.commit(at(5n), 'manual', { wait: true });
    const second = engine.commit(at(6n), 'manual', { wait: true });
    const third = engine.commit(at(7n), 'manual', { wait: true });
    await Promise.resolve();
    expect(store.calls.length).toBe(1);
    open();
    await Promise.all([first, second, third]);
    // 6 and 7 were queued together behind 5: one commit carries the later offset.
    expect(store.calls.map((c) => c.offsets[0].offset)).toEqual([5n, 7n]);
  });

  it('never moves an offset backwards unless the partition was sought', async () => {
    const { engine, p0, store } = setUp();
    await engine.commit(at(20n), 'manual', { wait: true, explicit: true });
    await expect(engine.commit(at(10n), 'manual', { wait: true, explicit: true })).rejects.toBeInstanceOf(
      BackwardCommitError,
    );
    // A processed offset below the stored one (the app committed ahead by hand) is just left out.
    p0.markProcessed(15n, 0);
    await engine.commit(engine.processedOffsets(), 'auto', { wait: true });
    expect(store.calls.length).toBe(1);
    p0.allowBackward = true;
    await engine.commit(at(10n), 'manual', { wait: true, explicit: true });
    expect(store.calls.at(-1)?.options?.allowBackward).toBe(true);
    expect(p0.committed).toBe(10n);
    expect(p0.allowBackward).toBe(false);
  });

  it('drops partitions the consumer no longer owns, even if queued while it did', async () => {
    const { engine, positions, store } = setUp();
    let open!: () => void;
    store.gate = new Promise((resolve) => {
      open = resolve;
    });
    const first = engine.commit([{ topic: 't', partition: 1, offset: 1n }], 'manual', { wait: true });
    const queued = engine.commit(at(5n), 'auto', { wait: true });
    positions.remove('t', 0);
    // Re-assigned: a new incarnation of the partition, which the queued commit does not speak for.
    positions.add('t', 0);
    open();
    await Promise.all([first, queued]);
    expect(store.calls.map((c) => c.offsets.map((o) => o.partition))).toEqual([[1]]);
  });

  it('retries a failed asynchronous commit before anything behind it, and lets a newer commit replace it', async () => {
    const { engine, store, events } = setUp();
    const retriable = new TidemarkError('coordinator moved', { retriable: true });
    store.failures = [retriable, retriable];
    void engine.commit(at(5n), 'auto', { wait: false });
    // Queued behind the failing one: it must never be overtaken by the retry.
    void engine.commit([{ topic: 't', partition: 1, offset: 3n }], 'auto', { wait: false });
    await engine.flush();
    const order = store.calls.map((c) => c.offsets.map((o) => `${o.partition}@${o.offset}`).join(','));
    expect(order).toEqual(['0@5', '0@5', '0@5', '1@3']);
    // Retried attempts are not failures: their own event, with the attempt number.
    expect(events.filter((e) => e.name === 'commit-failed')).toEqual([]);
    expect(events.filter((e) => e.name === 'commit-retry').map((e) => (e.payload as CommitRetryEvent).attempt)).toEqual(
      [1, 2],
    );

    store.failures = [retriable];
    void engine.commit(at(6n), 'auto', { wait: false });
    void engine.commit(
      [
        { topic: 't', partition: 0, offset: 9n },
        { topic: 't', partition: 1, offset: 4n },
      ],
      'manual',
      {
        wait: false,
        explicit: true,
      },
    );
    await engine.flush();
    // The failed commit of 6 is not retried: the queued commit of 9 covers partition 0 and goes next.
    const later = store.calls.slice(4).map((c) => c.offsets.map((o) => `${o.partition}@${o.offset}`).join(','));
    expect(later).toEqual(['0@6', '0@9,1@4']);
  });

  it('a commit refused for the generation is not retried: CommitFailedError, and the group is told to rejoin', async () => {
    const { engine, store, fenced } = setUp();
    store.failures = [kafkaError(ErrorCode.ILLEGAL_GENERATION)];
    await expect(engine.commit(at(5n), 'manual', { wait: true })).rejects.toBeInstanceOf(CommitFailedError);
    expect(fenced).toHaveLength(1);
    store.failures = [kafkaError(ErrorCode.UNKNOWN_MEMBER_ID)];
    void engine.commit(at(6n), 'auto', { wait: false });
    await engine.flush();
    expect(store.calls.length).toBe(2);
    expect(fenced.map((f) => f.error.errorName)).toEqual(['ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID']);
  });

  it('the membership gets the typed error and the generation the commit was sent under, not the current one', async () => {
    const { engine, store, fenced, member } = setUp();
    let release!: () => void;
    store.gate = new Promise((resolve) => {
      release = resolve;
    });
    store.failures = [kafkaError(ErrorCode.UNKNOWN_MEMBER_ID)];
    const done = engine.commit(at(5n), 'manual', { wait: true });
    await Promise.resolve();
    // The member rejoined while the commit was in flight.
    member.generationId = 4;
    release();
    await expect(done).rejects.toBeInstanceOf(CommitFailedError);
    expect(fenced).toHaveLength(1);
    expect(fenced[0].error.errorName).toBe('UNKNOWN_MEMBER_ID');
    expect(fenced[0].sentUnder).toEqual({ groupId: 'g', generationId: 3, memberId: 'm', groupInstanceId: null });
  });

  it('STALE_MEMBER_EPOCH (KIP-848): the member is told; a revoke commit goes again under the newer epoch', async () => {
    const { engine, store, fenced, member, events } = setUp();
    store.failures = [kafkaError(ErrorCode.STALE_MEMBER_EPOCH)];
    const done = engine.commit(at(5n), 'revoke', { wait: true });
    member.generationId = 9;
    await done;
    expect(store.calls.map((c) => c.options?.generation?.generationId)).toEqual([3, 9]);
    expect(fenced.map((f) => f.error.errorName)).toEqual(['STALE_MEMBER_EPOCH']);
    expect(events.filter((e) => e.name === 'commit').length).toBe(1);
    // The application's own commit is not retried: the partitions may have gone with the epoch.
    store.failures = [kafkaError(ErrorCode.STALE_MEMBER_EPOCH)];
    await expect(engine.commit(at(7n), 'manual', { wait: true })).rejects.toBeInstanceOf(CommitFailedError);
    expect(store.calls.length).toBe(3);
  });

  it('an aborted commit not yet sent is dropped from the queue; one already sent reports its outcome as an event', async () => {
    const { engine, store, events } = setUp();
    let release!: () => void;
    store.gate = new Promise((resolve) => {
      release = resolve;
    });
    const sent = new AbortController();
    const first = engine.commit(at(5n), 'manual', { wait: true, signal: sent.signal });
    const queued = new AbortController();
    const second = engine.commit(at(8n), 'manual', { wait: true, signal: queued.signal });
    const third = engine.commit(at(9n), 'manual', { wait: true });
    queued.abort(new Error('stop'));
    sent.abort(new Error('too late'));
    await expect(second).rejects.toThrow('stop');
    await expect(first).rejects.toThrow('too late');
    release();
    await third;
    // The queued one never went out; the one in flight did, and its outcome is an event.
    expect(store.calls.map((c) => c.offsets[0].offset)).toEqual([5n, 9n]);
    const committed = events
      .filter((e) => e.name === 'commit')
      .map((e) => (e.payload as CommitEvent).offsets[0].offset);
    expect(committed).toEqual([5n, 9n]);
    await expect(engine.commit(at(10n), 'manual', { wait: true, signal: AbortSignal.abort() })).rejects.toThrow();
    expect(store.calls.length).toBe(2);
  });

  it('without a group id there is nothing to commit to', async () => {
    const positions = new Positions();
    positions.add('t', 0);
    const engine = new CommitEngine({
      store: undefined,
      groupId: undefined,
      positions,
      generation: () => undefined,
      onRefused: () => {},
      metadata: undefined,
      retries: 0,
      emit: () => {},
      metrics: new MetricsRecorder(),
      signal: new AbortController().signal,
    });
    await expect(engine.commit(at(1n), 'manual', { wait: true })).rejects.toThrow(/group id/);
  });
});
