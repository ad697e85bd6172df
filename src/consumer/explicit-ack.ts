import type { ConsumerRecord } from './consumer-record.js';
import type { PartitionState } from './positions.js';

/**
 * The explicit-acknowledge mode (`ackMode: 'explicit'`): a record counts as processed only when the
 * application acknowledges it (`batch.ack(record)`, `consumer.ack(record)`; acks may come in any order and
 * the processed mark never moves back). Moving on (asking for the next batch or record) does not acknowledge
 * anything: what the batch in hand still holds unacknowledged is read again, from its first unacknowledged
 * record, exactly as a batch given up by `break`. Commits store only acknowledged offsets (docs/ARCHITECTURE.md,
 * "The offset contract"). kafkajs's `resolveOffset` with `eachBatchAutoResolve: false` is this mode.
 */
export type AckMode = 'auto' | 'explicit';

export const ACK_MODES: readonly AckMode[] = ['auto', 'explicit'];

/** Whether `records` of a batch on `state` are all acknowledged (an empty batch is). */
export function allAcknowledged(state: PartitionState, records: readonly ConsumerRecord[]): boolean {
  const last = records.at(-1);
  if (last === undefined) return true;
  const done = state.processed();
  return done !== undefined && done.offset >= last.nextOffset();
}
