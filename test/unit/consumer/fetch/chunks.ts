/** Fetched chunks for the fetch-buffer tests, without a fetch. */
import type { CompletedFetch } from '../../../../src/consumer/fetch/fetch-buffer.js';
import type { PartitionState } from '../../../../src/consumer/positions.js';

/** A chunk of `records` for `state`, as partition-response.ts makes them (records and offsets aside). */
export const chunkWith = (state: PartitionState, records: Buffer): CompletedFetch => ({
  state,
  generation: state.generation,
  records,
  fetchOffset: 0n,
  nextOffset: 1n,
  lastEpoch: -1,
  highWatermark: 0n,
  lastStableOffset: 0n,
  logStartOffset: 0n,
  abortedTransactions: null,
  corrupt: false,
  frame: undefined,
});
