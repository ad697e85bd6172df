import type { IsolationLevel } from '../cluster/list-offsets.js';
import { ConfigError } from '../network/errors.js';
import type { OffsetStore } from '../offsets/offset-store.js';
import type { AutoOffsetReset, OutOfRangePolicy } from '../offsets/range-check.js';
import { ACK_MODES, type AckMode } from './explicit-ack.js';
import type { FetchSettings } from './fetch/fetch-request.js';
import type { GroupMembershipOptions } from './group/membership.js';

export interface ConsumerOptions {
  /**
   * The consumer group: needed to subscribe, and to commit (manual assignment commits as a standalone
   * consumer of the group). Without it there are no stored positions: each partition starts by autoOffsetReset.
   */
  groupId?: string;
  /** Where to start without a stored position, and (by default) what to do when a position is out of range. Default 'latest', as Java. */
  autoOffsetReset?: AutoOffsetReset;
  /**
   * What to do with a position outside the log, loaded from the offset store or found while fetching. 'clamp'
   * moves to the nearest end (below the log start → earliest, past the log end → latest); 'fail' raises
   * OffsetOutOfRangeError naming the partition and the log range. Default: the offset store's
   * `outOfRangeDefault` (FileOffsetStore: 'clamp', the SEO paper's rule), else autoOffsetReset's choice, as
   * Java; with autoOffsetReset 'none' always 'fail'.
   */
  offsetOutOfRange?: OutOfRangePolicy;
  /**
   * Receives a line for every position the consumer moves on its own (`offset-reset` and `truncation` events,
   * with a `message` from describeRangeEvent). Default: the client's `logger` (client.consumer()), else none.
   */
  logger?: ConsumerLogger;
  /** 'read_committed' hides records of aborted transactions and reads only up to the last stable offset. Default 'read_uncommitted'. */
  isolationLevel?: IsolationLevel;
  /** Commit processed offsets on an interval, on revoke and on close. Default true when there is a group id. */
  autoCommit?: boolean;
  /** Default 5 000. */
  autoCommitIntervalMs?: number;
  /**
   * 'auto' (default): a batch counts as processed when the application asks for the next one. 'explicit': only
   * what the application acknowledges (`ack`) counts; the rest of a batch is read again (src/consumer/explicit-ack.ts).
   */
  ackMode?: AckMode;
  /** Retries of a failed asynchronous commit before it is reported as failed. Default 5. */
  commitRetries?: number;
  /** Stored with every commit (Kafka's commit metadata). */
  commitMetadata?: string;
  /** Where offsets live. Default: the group coordinator (BrokerOffsetStore); a FileOffsetStore plugs in here. */
  offsetStore?: OffsetStore;
  /** Bytes the broker waits for before it answers a fetch. Default 1. */
  fetchMinBytes?: number;
  /** How long the broker may wait for fetchMinBytes. Default 500. */
  fetchMaxWaitMs?: number;
  /** Bytes per fetch response. Default 52 428 800 (50 MiB), as Java. */
  fetchMaxBytes?: number;
  /** Bytes per partition per fetch response. Default 1 048 576, as Java. */
  maxPartitionFetchBytes?: number;
  /**
   * The memory bound: records fetched ahead, fetches in flight and the batch in the application's hands, in
   * bytes, together. Default 33 554 432 (32 MiB).
   */
  maxBufferedBytes?: number;
  /** Incremental fetch sessions (KIP-227). Default true. */
  fetchSessions?: boolean;
  /** Verify each batch's CRC-32C. Default true. */
  checkCrcs?: boolean;
  /** This consumer's rack (client.rack): fetch from a follower in it when the broker offers one (KIP-392). */
  clientRack?: string;
  /**
   * Bound of every request this consumer makes (Fetch, ListOffsets, OffsetFetch, OffsetCommit, and the group's
   * unless `group.requestTimeoutMs` says otherwise). Precedence: the narrower setting wins: `group.requestTimeoutMs`
   * for group requests, then this, then the client's `requestTimeoutMs`, then 30 000.
   */
  requestTimeoutMs?: number;
  /** How long a revoke waits for the application to finish the batch in hand before committing. Default 30 000. */
  revokeTimeoutMs?: number;
  /** Group membership settings (protocol, assignors, timeouts, static membership); groupId is taken from above. */
  group?: Omit<GroupMembershipOptions, 'groupId'>;
  /** Highest Fetch version to use (tests pin one); default the highest the broker speaks. */
  fetchVersion?: number;
}

/** Same shape as the client's `logger`: an event name and its fields. */
export type ConsumerLogger = (event: string, fields: Record<string, unknown>) => void;

export interface ResolvedConsumerOptions {
  groupId: string | undefined;
  autoOffsetReset: AutoOffsetReset;
  outOfRange: OutOfRangePolicy;
  isolationLevel: IsolationLevel;
  autoCommit: boolean;
  autoCommitIntervalMs: number;
  ackMode: AckMode;
  commitRetries: number;
  commitMetadata: string | undefined;
  maxBufferedBytes: number;
  revokeTimeoutMs: number;
  fetch: FetchSettings;
  logger: ConsumerLogger | undefined;
}

const INT32_MAX = 2 ** 31 - 1;
const KNOWN = new Set([
  'groupId',
  'autoOffsetReset',
  'offsetOutOfRange',
  'isolationLevel',
  'autoCommit',
  'autoCommitIntervalMs',
  'ackMode',
  'commitRetries',
  'commitMetadata',
  'offsetStore',
  'logger',
  'fetchMinBytes',
  'fetchMaxWaitMs',
  'fetchMaxBytes',
  'maxPartitionFetchBytes',
  'maxBufferedBytes',
  'fetchSessions',
  'checkCrcs',
  'clientRack',
  'requestTimeoutMs',
  'revokeTimeoutMs',
  'group',
  'fetchVersion',
]);

/** What each classic-only group option is left to under KIP-848, for the error that names it. */
const CLASSIC_ONLY = {
  sessionTimeoutMs: "the coordinator's group.consumer.session.timeout.ms",
  heartbeatIntervalMs: "the coordinator's group.consumer.heartbeat.interval.ms",
  assignors: 'the coordinator; choose its assignor with serverAssignor',
} as const;

/** As Java's ConsumerConfig: options the consumer protocol (KIP-848) has no use for are refused, not ignored. */
function rejectClassicOnly(group: NonNullable<ConsumerOptions['group']>): void {
  for (const [name, decidedBy] of Object.entries(CLASSIC_ONLY)) {
    if (group[name as keyof typeof CLASSIC_ONLY] !== undefined) {
      throw new ConfigError(
        `group.${name}`,
        `is a classic-protocol option; with protocol 'consumer' it is decided by ${decidedBy}`,
      );
    }
  }
}

/** Checks every option (unknown names too, to catch typos) and fills in the defaults. */
export function resolveConsumerOptions(o: ConsumerOptions, clientRequestTimeoutMs: number): ResolvedConsumerOptions {
  if (typeof o !== 'object' || o === null) throw new ConfigError('options', 'expected an object');
  for (const key of Object.keys(o)) if (!KNOWN.has(key)) throw new ConfigError(key, 'unknown consumer option');
  if (o.groupId !== undefined && (typeof o.groupId !== 'string' || o.groupId === '')) {
    throw new ConfigError('groupId', 'expected a non-empty string');
  }
  if (o.group?.protocol === 'consumer') rejectClassicOnly(o.group);
  const autoOffsetReset = oneOf('autoOffsetReset', o.autoOffsetReset, ['earliest', 'latest', 'none'], 'latest');
  const defaultOutOfRange: OutOfRangePolicy =
    autoOffsetReset === 'none' ? 'fail' : (o.offsetStore?.outOfRangeDefault ?? autoOffsetReset);
  const outOfRange = oneOf(
    'offsetOutOfRange',
    o.offsetOutOfRange,
    ['clamp', 'earliest', 'latest', 'fail'],
    defaultOutOfRange,
  );
  const isolationLevel = oneOf(
    'isolationLevel',
    o.isolationLevel,
    ['read_uncommitted', 'read_committed'],
    'read_uncommitted',
  );
  const maxBytes = int('fetchMaxBytes', o.fetchMaxBytes, 50 * 1024 * 1024, 1);
  const maxPartitionBytes = int('maxPartitionFetchBytes', o.maxPartitionFetchBytes, 1024 * 1024, 1);
  const maxBufferedBytes = int('maxBufferedBytes', o.maxBufferedBytes, 32 * 1024 * 1024, 1024);
  const requestTimeoutMs = int('requestTimeoutMs', o.requestTimeoutMs, clientRequestTimeoutMs, 1);
  if (o.clientRack !== undefined && typeof o.clientRack !== 'string')
    throw new ConfigError('clientRack', 'expected a string');
  if (o.commitMetadata !== undefined && typeof o.commitMetadata !== 'string') {
    throw new ConfigError('commitMetadata', 'expected a string');
  }
  if (o.logger !== undefined && typeof o.logger !== 'function') {
    throw new ConfigError('logger', 'expected a function (event, fields) => void');
  }
  if (o.fetchVersion !== undefined) int('fetchVersion', o.fetchVersion, 0, 0);
  if (o.autoCommit === true && o.groupId === undefined) throw new ConfigError('autoCommit', 'needs a groupId');
  if (o.ackMode !== undefined && !ACK_MODES.includes(o.ackMode)) {
    throw new ConfigError('ackMode', `expected 'auto' or 'explicit', got ${String(o.ackMode)}`);
  }
  return {
    groupId: o.groupId,
    autoOffsetReset,
    outOfRange,
    isolationLevel,
    autoCommit: bool('autoCommit', o.autoCommit, o.groupId !== undefined),
    autoCommitIntervalMs: int('autoCommitIntervalMs', o.autoCommitIntervalMs, 5_000, 1),
    ackMode: o.ackMode ?? 'auto',
    commitRetries: int('commitRetries', o.commitRetries, 5, 0),
    commitMetadata: o.commitMetadata,
    maxBufferedBytes,
    revokeTimeoutMs: int('revokeTimeoutMs', o.revokeTimeoutMs, 30_000, 0),
    fetch: {
      minBytes: int('fetchMinBytes', o.fetchMinBytes, 1, 0),
      maxWaitMs: int('fetchMaxWaitMs', o.fetchMaxWaitMs, 500, 0),
      maxBytes,
      maxPartitionBytes,
      readCommitted: isolationLevel === 'read_committed',
      rackId: o.clientRack ?? '',
      sessions: bool('fetchSessions', o.fetchSessions, true),
      maxVersion: o.fetchVersion,
      requestTimeoutMs,
      checkCrc: bool('checkCrcs', o.checkCrcs, true),
      preferredReplicaTtlMs: 5 * 60_000,
    },
    logger: o.logger,
  };
}

function int(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > INT32_MAX) {
    throw new ConfigError(name, `expected an integer from ${min} to ${INT32_MAX}, got ${String(value)}`);
  }
  return value;
}

function bool(name: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new ConfigError(name, 'expected true or false');
  return value;
}

function oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value))
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got ${String(value)}`);
  return value;
}
