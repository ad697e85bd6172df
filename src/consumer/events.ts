import { channel } from 'node:diagnostics_channel';
import type { TopicPartition } from '../cluster/partition-errors.js';
import { describeRangeEvent, type OffsetRangeEvent } from '../offsets/range-check.js';
import type { TruncationSource } from './errors.js';

/**
 * What a consumer reports as it runs: typed events on the Consumer (an EventEmitter) and the same payloads on
 * node:diagnostics_channel, so tracing and metrics code can observe every consumer in the process without a
 * reference to any of them. See EVENTS.md for the list and when each fires.
 */

/** A position moved because the log did not have it: auto offset reset, or an out-of-range correction. */
export type OffsetResetEvent = OffsetRangeEvent & { groupId: string | undefined };

/** KIP-320: the log diverged below the consumer's position; it moved back to where the log still agrees. */
export interface TruncationEvent {
  groupId: string | undefined;
  topic: string;
  partition: number;
  /** The position that is no longer in the log, and the leader epoch it was read in. */
  position: { offset: bigint; leaderEpoch: number };
  /**
   * Where the consumer goes on from: the end of the last epoch the leader and the consumer agree on. Undefined
   * when the leader knows no such epoch; the position is then reset by the auto offset reset policy.
   */
  resumedAt: { offset: bigint; leaderEpoch: number } | undefined;
  /** Offsets that were delivered before and will be delivered again, as the log now has them: [from, to). */
  reread: { from: bigint; to: bigint } | undefined;
  detectedBy: TruncationSource;
}

export interface RebalanceEvent {
  groupId: string;
  /** The member id this member has in the group ('' when it has none yet). */
  memberId: string;
  /**
   * What the step did to this member's partitions; `unchanged`: a rebalance completed and left them as they
   * were (`partitions` is then the whole assignment).
   */
  kind: 'assigned' | 'revoked' | 'lost' | 'unchanged';
  partitions: TopicPartition[];
  /** Generation (classic) or member epoch (KIP-848) after the change, when known. */
  generation: number | undefined;
}

export interface CommitEvent {
  groupId: string;
  offsets: { topic: string; partition: number; offset: bigint; leaderEpoch: number }[];
  latencyMs: number;
  /** What asked for it: the auto-commit timer, a revoke, close, or the application. */
  reason: CommitReason;
}

export type CommitReason = 'auto' | 'revoke' | 'close' | 'unassign' | 'manual';

/** A commit that failed for good: nothing of it was stored. */
export interface CommitFailedEvent {
  groupId: string;
  offsets: { topic: string; partition: number; offset: bigint }[];
  error: Error;
  reason: CommitReason;
  /** Always false: an attempt that will be tried again is a `commit-retry` event, not a failure. */
  willRetry: false;
}

/**
 * An attempt of a commit failed in a way that passes (the coordinator moved, the group is mid-rebalance, a
 * KIP-848 epoch moved on during a revoke): it is sent again after `retryInMs`. Not a failure; the commit ends
 * with a `commit` or, once retries are spent, a `commit-failed` event.
 */
export interface CommitRetryEvent {
  groupId: string;
  offsets: { topic: string; partition: number; offset: bigint }[];
  error: Error;
  reason: CommitReason;
  /** 1 for the first retry. */
  attempt: number;
  retryInMs: number;
}

export interface FetchEvent {
  nodeId: number;
  /** Partitions named in the request (an incremental session request names only changed ones). */
  partitionsSent: number;
  /** Partitions in the response (with data, or news). */
  partitionsReceived: number;
  bytes: number;
  latencyMs: number;
  version: number;
  sessionId: number;
}

/** Something went wrong that the consumer handles itself (it retries), reported for logging. */
export interface ConsumerWarningEvent {
  message: string;
  error: Error | undefined;
  topic?: string;
  partition?: number;
}

export interface ConsumerEventMap {
  'offset-reset': [OffsetResetEvent];
  truncation: [TruncationEvent];
  rebalance: [RebalanceEvent];
  commit: [CommitEvent];
  'commit-failed': [CommitFailedEvent];
  'commit-retry': [CommitRetryEvent];
  fetch: [FetchEvent];
  warning: [ConsumerWarningEvent];
}

export type ConsumerEventName = keyof ConsumerEventMap;

/** The diagnostics channels: `tidemark:consumer:<event name>`. */
export const CONSUMER_CHANNELS: { readonly [K in ConsumerEventName]: ReturnType<typeof channel> } = {
  'offset-reset': channel('tidemark:consumer:offset-reset'),
  truncation: channel('tidemark:consumer:truncation'),
  rebalance: channel('tidemark:consumer:rebalance'),
  commit: channel('tidemark:consumer:commit'),
  'commit-failed': channel('tidemark:consumer:commit-failed'),
  'commit-retry': channel('tidemark:consumer:commit-retry'),
  fetch: channel('tidemark:consumer:fetch'),
  warning: channel('tidemark:consumer:warning'),
};

/** Where the consumer's parts send events: the Consumer's emit, plus the diagnostics channel. */
export interface EventSink {
  <K extends ConsumerEventName>(name: K, payload: ConsumerEventMap[K][0]): void;
  /** Whether an event `name` would reach anyone; a sink without it (a test's) counts as always observed. */
  observed?(name: ConsumerEventName): boolean;
}

/**
 * Publishes on the channel (when anyone listens) and hands the event to `emit`; `listens` says whether the
 * Consumer has listeners for an event, so that `isObserved` can tell when nobody would see one.
 */
export function eventSink(
  emit: (name: ConsumerEventName, payload: unknown) => void,
  listens: (name: ConsumerEventName) => boolean,
): EventSink {
  const sink: EventSink = (name, payload) => {
    const ch = CONSUMER_CHANNELS[name];
    if (ch.hasSubscribers) ch.publish(payload);
    emit(name, payload);
  };
  sink.observed = (name) => CONSUMER_CHANNELS[name].hasSubscribers || listens(name);
  return sink;
}

/**
 * Whether anyone would see an event `name` from `sink`: a part that emits often (the fetch loop, once per
 * request) builds the payload only when this is true, so an unobserved consumer builds nothing for it.
 */
export function isObserved(sink: EventSink, name: ConsumerEventName): boolean {
  return sink.observed?.(name) ?? true;
}

/**
 * `sink`, plus a log line for every position the consumer moved on its own (offset-reset, truncation): the
 * contract says such moves are never silent, and an application that listens to no event still has its log.
 */
export function loggingSink(
  sink: EventSink,
  logger: ((event: string, fields: Record<string, unknown>) => void) | undefined,
): EventSink {
  if (logger === undefined) return sink;
  const logged: EventSink = (name, payload) => {
    try {
      if (name === 'offset-reset') {
        const e = payload as OffsetResetEvent;
        logger(`consumer:${name}`, { ...e, message: describeRangeEvent(e) });
      } else if (name === 'truncation') {
        logger(`consumer:${name}`, {
          ...(payload as TruncationEvent),
          message: describeTruncation(payload as TruncationEvent),
        });
      }
    } catch (error) {
      // A logger's bug must not stop the consumer; it is still made visible.
      process.emitWarning(`consumer logger threw: ${String(error)}`);
    }
    sink(name, payload);
  };
  logged.observed = (name) => name === 'offset-reset' || name === 'truncation' || isObserved(sink, name);
  return logged;
}

function describeTruncation(e: TruncationEvent): string {
  const where = `${e.topic}-${e.partition}`;
  const from = `offset ${e.position.offset} (leader epoch ${e.position.leaderEpoch})`;
  if (e.resumedAt === undefined) return `${where}: log truncated below ${from}; no common epoch, reset by policy`;
  const reread = e.reread === undefined ? '' : `, re-reading [${e.reread.from}, ${e.reread.to})`;
  return `${where}: log truncated below ${from}; resuming at ${e.resumedAt.offset}${reread}`;
}
