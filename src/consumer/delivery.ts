/**
 * The delivery cursor the consumer's iterators share (Delivery): takes fetched chunks in order, hands them out a
 * slice at a time as DeliveredBatch (delivered-batch.ts), and settles each batch as processed or given up.
 */
import type { ConsumerBatchContext } from '../observability/channels.js';
import { type BatchSource, batchDelivered, batchDone, batchRequested } from '../observability/consumer-batch.js';
import { DeliveredBatch } from './delivered-batch.js';
import { IteratorInUseError } from './errors.js';
import { allAcknowledged } from './explicit-ack.js';
import { ChunkReader, type DecodeChunkOptions } from './fetch/chunk-reader.js';
import type { CompletedFetch } from './fetch/fetch-buffer.js';
import type { Fetcher } from './fetch/fetcher.js';
import { letGoOfFrame } from './fetch/frame-pool.js';
import type { MetricsRecorder } from './metrics.js';
import type { PartitionState, Positions } from './positions.js';

export interface DeliveryOptions {
  fetcher: Fetcher;
  positions: Positions;
  decode: DecodeChunkOptions;
  metrics: MetricsRecorder;
  /** Runs whenever the application asks for records: group liveness; throws what the application must hear. */
  beforePoll(): void;
  isClosed(): boolean;
  /** Names the consumer in `tidemark:consumer:batch` (src/observability/consumer-batch.ts). */
  source?: BatchSource;
  /** `ackMode: 'explicit'` (explicit-ack.ts): moving on acknowledges nothing. */
  explicitAck?: boolean;
}

/**
 * Records per batch handed out: about this many bytes of whole record batches from a fetched chunk. Small
 * enough that decoded records die young (cheap collections), large enough that per-batch costs vanish.
 *
 * Why not 64 KiB, as before: the slice in hand is most of what survives each young-generation collection
 * (~1,200 records at 100 B values, ~0.5 MB), and V8 grows the young generation once enough has survived. On
 * Node 24 (V8 13.6), whose young generation grows to 32 MiB semi-spaces, that growth and the old-space
 * collections around it kept mapping fresh pages: twice Node 20's page faults, 0.1-0.3 CPU s more per
 * 2M records. Half the slice, half the survivors: Node 24 faults like Node 20 and its fetch costs 0.75x the
 * CPU; Node 20 unchanged (bench/results/node24.md).
 */
const SLICE_BYTES = 32 * 1024;
/**
 * And at most about this many records (whole batches, so a little more), which is what 32 KiB of uncompressed
 * 100 B values holds: a compressed slice of 32 KiB decodes to several times as many records (lz4 at 100 B values,
 * ~1,500), and survivors are counted in records, not in fetched bytes (chunk-reader.ts).
 */
const SLICE_RECORDS = 256;

/**
 * The cursor the iterators share: takes fetched chunks in order, decodes them a slice at a time, and hands out
 * one batch at a time. The batch in hand counts as processed when the application asks for the next one (the
 * loop body that received it returned); a batch given up unfinished (break, throw) is not, and its partition
 * goes back to its first unprocessed record so nothing is skipped.
 */
export class Delivery {
  private current: DeliveredBatch | undefined;
  /** The chunk being handed out slice by slice. */
  private reader: ChunkReader | undefined;
  private owner: object | undefined;
  private idleWaiters: { matches: (state: PartitionState) => boolean; resolve: () => void }[] = [];
  /** Detached batches whose handlers run now (concurrent.ts). */
  private readonly inFlight = new Set<DeliveredBatch>();
  /** Detached batches a close stopped waiting for: settling them later marks nothing processed. */
  private readonly givenUp = new Set<DeliveredBatch>();
  /** Detached batches' `tidemark:consumer:batch` contexts, ended when they settle. */
  private readonly detachedTraces = new Map<DeliveredBatch, ConsumerBatchContext>();
  /** The batch in hand as `tidemark:consumer:batch` published it; undefined when nobody subscribes. */
  private traced: ConsumerBatchContext | undefined;

  constructor(private readonly o: DeliveryOptions) {}

  /** One iterator at a time: two would split records between them unpredictably. */
  acquire(owner: object): void {
    if (this.owner !== undefined && this.owner !== owner) throw new IteratorInUseError();
    this.owner = owner;
  }

  releaseOwner(owner: object): void {
    if (this.owner === owner) this.owner = undefined;
  }

  /** The batch the application holds, if any. */
  get inHand(): DeliveredBatch | undefined {
    return this.current;
  }

  /** Whether the consumer is closing: detached batches not started yet stay unprocessed (concurrent.ts). */
  get closed(): boolean {
    return this.o.isClosed();
  }

  /** Whether only acknowledgements count (explicit-ack.ts); the per-record iterator then marks nothing itself. */
  get explicitAck(): boolean {
    return this.o.explicitAck === true;
  }

  /** The batch in hand is done: everything in it is processed, and its bytes may be fetched again. */
  finish(): void {
    const batch = this.current;
    if (batch === undefined) return;
    this.current = undefined;
    this.settleBatch(batch, this.takeTrace(batch), 'processed');
  }

  /** The batch in hand was given up unfinished: go back to its first record not processed. */
  abandon(): void {
    const batch = this.current;
    if (batch === undefined) return;
    this.current = undefined;
    this.settleBatch(batch, this.takeTrace(batch), 'unprocessed');
  }

  /**
   * Takes the batch in hand out of the cursor (concurrent.ts): asking for the next batch then neither processes
   * nor gives it up; `settle()` does, later. Until then its chunk's bytes stay held.
   */
  detach(): DeliveredBatch | undefined {
    const batch = this.current;
    if (batch === undefined) return undefined;
    this.current = undefined;
    if (this.traced !== undefined) this.detachedTraces.set(batch, this.traced);
    this.traced = undefined;
    return batch;
  }

  /** A detached batch is being processed now: a revoke of its partition waits for its `settle()`. */
  track(batch: DeliveredBatch): void {
    this.inFlight.add(batch);
  }

  /**
   * Settles a detached batch: `processed` (its handler returned; under explicit acks only what was acknowledged),
   * `unprocessed` (go back to its first record not processed), or `void` (a later batch of a partition that
   * already went back: only its bytes are freed). Returns whether the partition went back, which voids every
   * later batch of it still waiting.
   */
  settle(batch: DeliveredBatch, outcome: 'processed' | 'unprocessed' | 'void'): boolean {
    const trace = this.detachedTraces.get(batch);
    this.detachedTraces.delete(batch);
    this.inFlight.delete(batch);
    // A close went on without it: its end changes nothing the close committed (only its bytes are freed).
    if (this.givenUp.delete(batch)) outcome = 'void';
    return this.settleBatch(batch, trace, outcome);
  }

  /**
   * A close waits for the handlers of detached batches before it commits, up to `ms` or until `signal` aborts.
   * Those still running then are given up (their batches are not marked processed when they end, so not
   * committed: read again by the next owner) and returned, for the close to report.
   */
  async awaitInFlight(ms: number, signal?: AbortSignal): Promise<DeliveredBatch[]> {
    if (this.inFlight.size > 0 && signal?.aborted !== true) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const stopped = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        onAbort = resolve;
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      await Promise.race([this.whenSettled(() => true), stopped]);
      clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    }
    const unfinished = [...this.inFlight];
    for (const batch of unfinished) {
      this.inFlight.delete(batch);
      this.givenUp.add(batch);
    }
    // A re-assignment waiting for them goes on too (its partitions are committed by the close).
    if (unfinished.length > 0) this.settled();
    return unfinished;
  }

  /** Stops or restarts fetching a partition whose processBatches lane holds enough of its batches already. */
  holdFetching(state: PartitionState, hold: boolean): void {
    if (state.backlogged === hold) return;
    state.backlogged = hold;
    if (!hold) this.o.fetcher.wake();
  }

  private takeTrace(batch: DeliveredBatch): ConsumerBatchContext | undefined {
    const traced = this.traced;
    this.traced = undefined;
    return traced ?? this.detachedTraces.get(batch);
  }

  private settleBatch(
    batch: DeliveredBatch,
    traced: ConsumerBatchContext | undefined,
    outcome: 'processed' | 'unprocessed' | 'void',
  ): boolean {
    letGoOfFrame(batch);
    // Explicit acks: what is not acknowledged is read again, as from a batch given up.
    if (outcome === 'processed' && this.explicitAck && batch.current && !allAcknowledged(batch.state, batch.records)) {
      outcome = 'unprocessed';
    }
    if (outcome === 'processed') {
      if (traced !== undefined) batchDone(traced, batch.current);
      if (batch.current) batch.state.markProcessed(batch.nextOffset, batch.lastEpoch);
      if (batch.last) this.o.fetcher.buffer.release(batch.chunk);
      this.settled();
      return false;
    }
    if (traced !== undefined) batchDone(traced, false);
    const rewound = outcome === 'unprocessed' && this.rewind(batch);
    this.dropReader(batch.chunk);
    if (batch.last) this.o.fetcher.buffer.release(batch.chunk);
    this.settled();
    return rewound;
  }

  /** Sends the partition back to the batch's first record not processed; whether it moved. */
  private rewind(batch: DeliveredBatch): boolean {
    const s = batch.state;
    if (!batch.current || this.o.positions.get(s.topic, s.partition) !== s || batch.records.length === 0) return false;
    const first = batch.records[0].offset;
    const done = s.processed();
    const [offset, epoch] =
      done !== undefined && done.offset > first ? [done.offset, done.leaderEpoch] : [first, batch.startEpoch];
    if (offset >= batch.nextOffset && batch.last) return false;
    this.o.fetcher.dropBuffered(s);
    s.rewindTo(offset, epoch);
    this.o.fetcher.wake();
    return true;
  }

  /** Resolves once no batch of `matches` is in hand or in flight (a revoke waits for the application to finish it). */
  whenSettled(matches: (state: PartitionState) => boolean): Promise<void> {
    if (!this.holds(matches)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push({ matches, resolve }));
  }

  /** The batches of `matches` in hand or in flight: what a revoke that went on without them reports. */
  held(matches: (state: PartitionState) => boolean): DeliveredBatch[] {
    const all = this.current === undefined ? [...this.inFlight] : [this.current, ...this.inFlight];
    return all.filter((batch) => matches(batch.state));
  }

  private holds(matches: (state: PartitionState) => boolean): boolean {
    return this.held(matches).length > 0;
  }

  /**
   * The next batch with records, waiting for one; undefined once the consumer is closed. Rejects with the
   * signal's reason once it is aborted, also when a batch is ready (so a stop request ends delivery at the next
   * batch boundary).
   */
  async next(signal?: AbortSignal): Promise<DeliveredBatch | undefined> {
    this.finish();
    const requestedAt = batchRequested();
    const { fetcher, positions } = this.o;
    for (;;) {
      // A stop request ends delivery at this batch boundary: what is buffered stays unprocessed, to be read again.
      signal?.throwIfAborted();
      // Closed, or the fetch loop stopped because the client was closed under the consumer.
      if (this.o.isClosed() || fetcher.signal.aborted) return undefined;
      this.o.beforePoll();
      throwPartitionError(positions);
      let reader = this.reader;
      if (reader !== undefined && !this.readable(reader.chunk)) {
        this.dropReader(reader.chunk);
        reader = undefined;
      }
      if (reader === undefined) {
        const chunk = fetcher.buffer.shift();
        if (chunk === undefined) {
          fetcher.wake();
          await fetcher.buffer.wait(signal);
          continue;
        }
        reader = this.open(chunk);
        if (reader === undefined) continue;
      }
      const batch = this.slice(reader);
      if (batch !== undefined) {
        this.current = batch;
        this.o.metrics.recordsDelivered += batch.records.length;
        if (this.o.source !== undefined) this.traced = batchDelivered(this.o.source, batch, requestedAt);
        return batch;
      }
    }
  }

  /** Whether a chunk still belongs where it was fetched for (no seek, pause, revoke or failure since). */
  private readable(chunk: CompletedFetch): boolean {
    const s = chunk.state;
    return (
      this.o.positions.get(s.topic, s.partition) === s &&
      s.generation === chunk.generation &&
      s.phase === 'fetching' &&
      !s.paused
    );
  }

  /** Starts on a chunk if it is still wanted and continues the partition where the application is. */
  private open(chunk: CompletedFetch): ChunkReader | undefined {
    const { fetcher } = this.o;
    const s = chunk.state;
    if (!this.readable(chunk)) {
      fetcher.buffer.release(chunk);
      return undefined;
    }
    if (chunk.fetchOffset !== s.position) {
      // A gap between what was delivered and this chunk: never deliver across it; fetch from the position.
      fetcher.buffer.release(chunk);
      fetcher.dropBuffered(s);
      s.rewind();
      fetcher.wake();
      return undefined;
    }
    this.reader = new ChunkReader(chunk, this.o.decode);
    return this.reader;
  }

  /** Decodes the reader's next slice; undefined when it holds nothing to show (markers, aborted records). */
  private slice(reader: ChunkReader): DeliveredBatch | undefined {
    const { chunk } = reader;
    const s = chunk.state;
    const startEpoch = s.positionEpoch;
    const d = reader.next(s.position, SLICE_BYTES, SLICE_RECORDS);
    const last = d.error !== undefined || reader.done;
    if (last) {
      this.reader = undefined;
      // Decoded from copies: nothing needs the chunk's response memory any more, though its bytes stay counted.
      if (reader.copiesOut) letGoOfFrame(chunk);
    }
    const lastEpoch = d.lastEpoch >= 0 ? d.lastEpoch : startEpoch;
    s.position = d.nextOffset;
    s.positionEpoch = lastEpoch;
    if (d.error !== undefined) {
      // What came before the bad batch is delivered; the partition stops at the bad batch.
      if (d.errorOffset !== undefined && d.errorOffset > s.position) s.position = d.errorOffset;
      this.o.fetcher.fail(s, d.error);
    }
    if (d.records.length > 0) {
      return new DeliveredBatch(
        s,
        chunk,
        d.records,
        d.nextOffset,
        lastEpoch,
        startEpoch,
        this.o.decode.readCommitted,
        last,
        reader.copiesOut ? undefined : chunk.frame,
      );
    }
    // Nothing to process in this slice, so the partition is processed through it.
    s.markProcessed(d.nextOffset, lastEpoch);
    if (last) this.o.fetcher.buffer.release(chunk);
    return undefined;
  }

  /** Stops slicing `chunk` (void now, or given up) and frees it unless the batch in hand still holds it. */
  private dropReader(chunk: CompletedFetch): void {
    if (this.reader?.chunk !== chunk) return;
    this.reader = undefined;
    if (this.current?.chunk !== chunk) this.o.fetcher.buffer.release(chunk);
  }

  private settled(): void {
    if (this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) {
      if (this.holds(waiter.matches)) this.idleWaiters.push(waiter);
      else waiter.resolve();
    }
  }
}

/** A partition stopped by an error is reported at every request for records until the application seeks. */
function throwPartitionError(positions: Positions): void {
  for (const s of positions.all()) if (s.phase === 'failed' && s.error !== undefined) throw s.error;
}
