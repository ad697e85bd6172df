import type { Consumer, ConsumerBatch, ConsumerRecord } from '../../src/consumer/index.js';
import type { HandledRecord, Processing } from './processing.js';
import type { AppendSink } from './sink.js';

/** What a mode's loop gets: the consumer (already assigned), the handler, and the stop signal. */
export interface LoopContext {
  consumer: Consumer;
  processing: Processing;
  /** Aborted on SIGTERM: ends the wait for the next batch. */
  stop: AbortSignal;
  batchSink: AppendSink | undefined;
  commitIntervalMs: number;
  /** Records processed (and committed) as one batch at most: Java's max.poll.records. */
  maxRecords: number;
}

/** Records the poll loop of mode (a) may queue for its processor, besides those in hand (twice Java's default max.poll.records). */
const AHEAD_RECORDS = 1_000;

/**
 * Mode (a), the flaw made explicit: the poll loop records the offset of every FETCHED record and hands the
 * records to a slower processor through a queue; a timer commits the fetched offsets to the broker. On a
 * graceful stop the fetched positions are committed and the consumer closed (KafkaConsumer.close()); the
 * queue dies with the process. Everything queued or in the processor's hands when offsets were committed is
 * lost: the restarted consumer begins after it.
 */
export async function commitAtFetch(ctx: LoopContext): Promise<void> {
  const { consumer, processing, stop } = ctx;
  const fetched = new Map<string, { topic: string; partition: number; offset: bigint }>();
  const queue: HandledRecord[][] = [];
  let queued = 0;
  // The poll loop and the processor wait for each other (queue full, queue empty) and wake each other.
  let waiting: (() => void)[] = [];
  const notify = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  const changed = () => new Promise<void>((resolve) => waiting.push(resolve));
  const committer = setInterval(() => {
    if (fetched.size > 0) consumer.commitAsync({ offsets: [...fetched.values()] });
  }, ctx.commitIntervalMs);
  stop.addEventListener('abort', notify);

  const processor = (async () => {
    while (!stop.aborted) {
      const records = queue.shift();
      if (records === undefined) {
        await changed();
        continue;
      }
      // Taken off the queue: the poll loop may fetch more while these are processed.
      queued -= records.length;
      notify();
      for (const r of records) {
        if (stop.aborted) return;
        await processing.process(r);
      }
    }
  })();

  try {
    for await (const batch of consumer.batches({ signal: stop })) {
      // Handed out as Java's poll() would, at most maxRecords at a time, each advancing the fetched position.
      for (let at = 0; at < batch.records.length; at += ctx.maxRecords) {
        const piece = batch.records.slice(at, at + ctx.maxRecords);
        fetched.set(`${batch.topic}/${batch.partition}`, {
          topic: batch.topic,
          partition: batch.partition,
          offset: piece[piece.length - 1].offset + 1n,
        });
        // Copies: the queue outlives the batch, whose buffers the consumer may reuse.
        queue.push(
          piece.map((r) => ({
            topic: r.topic,
            partition: r.partition,
            offset: r.offset,
            value: r.value === null ? null : Buffer.from(r.value),
          })),
        );
        queued += piece.length;
        notify();
        while (queued > AHEAD_RECORDS && !stop.aborted) await changed();
        if (stop.aborted) break;
      }
      if (stop.aborted) break;
    }
  } catch (err) {
    if (!stop.aborted) throw err;
  } finally {
    clearInterval(committer);
    notify();
  }
  await processor;
  // close() of Java's consumer commits the consumed (fetched) positions.
  if (fetched.size > 0) await consumer.commit({ offsets: [...fetched.values()] });
}

/**
 * The batches a mode processes and commits: a delivered batch cut into pieces of at most `maxRecords`
 * (Java's max.poll.records), each logged to the batch sink as it is handed to the handler.
 */
function* pieces(batch: ConsumerBatch, maxRecords: number, sink: AppendSink | undefined): Generator<ConsumerRecord[]> {
  for (let at = 0; at < batch.records.length; at += maxRecords) {
    const piece = batch.records.slice(at, at + maxRecords);
    sink?.append(batch.partition, Number(piece[0].offset), piece.length);
    yield piece;
  }
}

/**
 * Mode (b): commitAsync() after each processed batch. The process's SIGTERM handler exits at once, so
 * whatever commit is still in flight (or not yet sent) is lost: the restart repeats those batches.
 */
export async function asyncCommitAfterProcessing(ctx: LoopContext): Promise<void> {
  const { consumer, processing } = ctx;
  for await (const batch of consumer.batches()) {
    for (const piece of pieces(batch, ctx.maxRecords, ctx.batchSink)) {
      for (const r of piece) await processing.process(r);
      batch.ack(piece[piece.length - 1]);
      consumer.commitAsync();
    }
  }
}

/**
 * Modes (c) and (d): offsets stored after each processed batch and waited for, through the consumer's
 * offset store (a FileOffsetStore, or the transactional journal). On SIGTERM the record in hand is finished,
 * everything processed is acknowledged, and the caller's close() commits it.
 */
export async function commitAfterProcessing(ctx: LoopContext): Promise<void> {
  const { consumer, processing, stop } = ctx;
  try {
    for await (const batch of consumer.batches({ signal: stop })) {
      for (const piece of pieces(batch, ctx.maxRecords, ctx.batchSink)) {
        let done: ConsumerRecord | undefined;
        for (const r of piece) {
          if (stop.aborted) break;
          await processing.process(r);
          done = r;
        }
        if (done !== undefined) batch.ack(done);
        if (stop.aborted) break;
        await consumer.commit();
      }
      if (stop.aborted) break;
    }
  } catch (err) {
    if (!stop.aborted) throw err;
  }
}
