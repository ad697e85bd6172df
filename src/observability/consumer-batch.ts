/**
 * `tidemark:consumer:batch`: a batch from delivery to the application until it is done with it. The consumer's
 * cursor (src/consumer/delivery.ts) calls these; the context is built only when anyone subscribes.
 */
import { type BatchRecordView, type ConsumerBatchContext, TRACING_CHANNELS, traced } from './channels.js';

/** Who delivers: the consumer's client id and group. */
export interface BatchSource {
  clientId: string;
  groupId: string | undefined;
}

/** When the application asked for a batch: a timestamp only when someone will read it. */
export function batchRequested(): number {
  return traced(TRACING_CHANNELS.consumerBatch) ? performance.now() : 0;
}

/** Publishes the start of a delivered batch; returns its context for `batchDone`, or undefined untraced. */
export function batchDelivered(
  source: BatchSource,
  batch: { topic: string; partition: number; records: readonly BatchRecordView[] },
  requestedAt: number,
): ConsumerBatchContext | undefined {
  const channel = TRACING_CHANNELS.consumerBatch;
  if (!traced(channel) || batch.records.length === 0) return undefined;
  const { records } = batch;
  const context: ConsumerBatchContext = {
    clientId: source.clientId,
    groupId: source.groupId,
    topic: batch.topic,
    partition: batch.partition,
    firstOffset: records[0].offset,
    lastOffset: records[records.length - 1].offset,
    records,
    requestedAt: requestedAt === 0 ? performance.now() : requestedAt,
    deliveredAt: performance.now(),
  };
  channel.start.publish(context);
  return context;
}

/**
 * Publishes the end of a batch: processed (the application asked for the next), or given up unfinished (the
 * loop left by break or throw, or a seek moved the partition).
 */
export function batchDone(context: ConsumerBatchContext | undefined, processed: boolean): void {
  if (context === undefined) return;
  context.processed = processed;
  context.doneAt = performance.now();
  TRACING_CHANNELS.consumerBatch.end.publish(context);
}
