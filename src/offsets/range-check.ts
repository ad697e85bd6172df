import { ImplausibleResponseError } from '../network/errors.js';
import { NoStoredOffsetError, OffsetOutOfRangeError } from './errors.js';

/**
 * The SEO paper's start-up check, as a pure function: each stored position is compared with the log's
 * earliest and latest offsets (from ListOffsets, fetched by the caller) and corrected by policy. Every
 * correction, and every start without a stored offset, comes back as an event that names the offsets
 * skipped or read again, so a consumer can log it: nothing moves silently.
 *
 * Ranges are half-open, `[from, to)`:
 * - `skipped`: offsets at or after where the consumer would have resumed that it will now never deliver
 *   (deleted by retention or DeleteRecords, or jumped over by a move to `latest`);
 * - `reread`: offsets before the stored position that it will deliver (again): after a move back to
 *   `earliest`, or, for a stored offset past the log end (log truncated, topic re-created), the offsets
 *   between the new log end and the stored position, which new records will reuse.
 */

/** What to do with a stored offset outside `[earliest, latest]`. */
export type OutOfRangePolicy =
  /** Below earliest → earliest, above latest → latest: the nearest valid position (the paper's rule). */
  | 'clamp'
  | 'earliest'
  | 'latest'
  /** Throw `OffsetOutOfRangeError` naming every such partition. */
  | 'fail';

/** Where to start without a stored offset (Kafka's `auto.offset.reset`). */
export type AutoOffsetReset = 'earliest' | 'latest' | 'none';

export interface OffsetRangeCheckOptions {
  /** Default `clamp`. */
  outOfRange?: OutOfRangePolicy;
  /** Default `earliest`, as the paper (no file → start from the earliest offset). */
  autoOffsetReset?: AutoOffsetReset;
}

export interface PartitionRange {
  topic: string;
  partition: number;
  /** The stored position; undefined when nothing is stored. */
  stored: bigint | undefined;
  /** The log start offset (ListOffsets timestamp -2). */
  earliest: bigint;
  /** The log end offset: the next offset to be written (ListOffsets timestamp -1). */
  latest: bigint;
}

export interface OffsetRange {
  from: bigint;
  to: bigint;
}

export interface OffsetCorrection {
  type: 'offset-corrected';
  topic: string;
  partition: number;
  reason: 'below-earliest' | 'above-latest';
  stored: bigint;
  corrected: bigint;
  earliest: bigint;
  latest: bigint;
  policy: Exclude<OutOfRangePolicy, 'fail'>;
  skipped?: OffsetRange;
  reread?: OffsetRange;
}

export interface OffsetReset {
  type: 'offset-reset';
  topic: string;
  partition: number;
  reason: 'no-stored-offset';
  corrected: bigint;
  earliest: bigint;
  latest: bigint;
  policy: Exclude<AutoOffsetReset, 'none'>;
  /** With `latest`: the records that exist and will not be read. */
  skipped?: OffsetRange;
}

export type OffsetRangeEvent = OffsetCorrection | OffsetReset;

export interface CheckedPosition {
  topic: string;
  partition: number;
  offset: bigint;
  source: 'stored' | 'corrected' | 'reset';
}

export interface OffsetRangeCheckResult {
  positions: CheckedPosition[];
  events: OffsetRangeEvent[];
}

/** `[from, to)` when non-empty. */
function range(from: bigint, to: bigint): OffsetRange | undefined {
  return from < to ? { from, to } : undefined;
}

/** Corrected start positions for `partitions`, in their order, plus one event per partition that moved. */
export function checkOffsetRanges(
  partitions: readonly PartitionRange[],
  options: OffsetRangeCheckOptions = {},
): OffsetRangeCheckResult {
  const policy = options.outOfRange ?? 'clamp';
  const reset = options.autoOffsetReset ?? 'earliest';
  const positions: CheckedPosition[] = [];
  const events: OffsetRangeEvent[] = [];
  const outside: PartitionRange[] = [];
  const missing: PartitionRange[] = [];

  for (const p of partitions) {
    const { topic, partition, stored, earliest, latest } = p;
    if (earliest < 0n || latest < earliest) {
      // No broker answers so (listOffsets already retries such answers): a typed, retriable protocol error.
      throw new ImplausibleResponseError(
        `${topic}-${partition}: log range [${earliest}, ${latest}] is not a valid range`,
        {
          api: 'ListOffsetsResponse',
        },
      );
    }
    if (stored === undefined) {
      if (reset === 'none') {
        missing.push(p);
        continue;
      }
      const corrected = reset === 'earliest' ? earliest : latest;
      const event: OffsetReset = {
        type: 'offset-reset',
        topic,
        partition,
        reason: 'no-stored-offset',
        corrected,
        earliest,
        latest,
        policy: reset,
      };
      const skipped = reset === 'latest' ? range(earliest, latest) : undefined;
      if (skipped !== undefined) event.skipped = skipped;
      events.push(event);
      positions.push({ topic, partition, offset: corrected, source: 'reset' });
      continue;
    }
    if (stored >= earliest && stored <= latest) {
      positions.push({ topic, partition, offset: stored, source: 'stored' });
      continue;
    }
    if (policy === 'fail') {
      outside.push(p);
      continue;
    }
    const below = stored < earliest;
    const corrected = policy === 'earliest' ? earliest : policy === 'latest' ? latest : below ? earliest : latest;
    const event: OffsetCorrection = {
      type: 'offset-corrected',
      topic,
      partition,
      reason: below ? 'below-earliest' : 'above-latest',
      stored,
      corrected,
      earliest,
      latest,
      policy,
    };
    // Moving forward skips [stored, corrected); moving back re-reads [corrected, stored).
    const skipped = range(stored, corrected);
    const reread = range(corrected, stored);
    if (skipped !== undefined) event.skipped = skipped;
    if (reread !== undefined) event.reread = reread;
    events.push(event);
    positions.push({ topic, partition, offset: corrected, source: 'corrected' });
  }
  if (outside.length > 0) {
    throw new OffsetOutOfRangeError(outside.map((p) => ({ ...p, stored: p.stored! })));
  }
  if (missing.length > 0) throw new NoStoredOffsetError(missing.map(({ topic, partition }) => ({ topic, partition })));
  return { positions, events };
}

/** One line for a log: what moved, where to, and which offsets are skipped or read again. */
export function describeRangeEvent(event: OffsetRangeEvent): string {
  const where = `${event.topic}-${event.partition}`;
  const log = `log [${event.earliest}, ${event.latest})`;
  const span = (r: OffsetRange) => `[${r.from}, ${r.to}) (${r.to - r.from} offsets)`;
  if (event.type === 'offset-reset') {
    const tail = event.skipped === undefined ? '' : `, skipping ${span(event.skipped)}`;
    return `${where}: no stored offset; auto offset reset ${event.policy} starts at ${event.corrected} (${log})${tail}`;
  }
  const side = event.reason === 'below-earliest' ? 'below the log start' : 'past the log end';
  const parts = [
    `${where}: stored offset ${event.stored} is ${side} (${log}); ${event.policy} moves to ${event.corrected}`,
  ];
  if (event.skipped !== undefined) parts.push(`skipping ${span(event.skipped)}`);
  if (event.reread !== undefined) parts.push(`re-reading ${span(event.reread)}`);
  return parts.join(', ');
}
