import type { IsolationLevel } from '../cluster/list-offsets.js';
import type { OffsetStore } from '../offsets/offset-store.js';
import type { AutoOffsetReset, OutOfRangePolicy } from '../offsets/range-check.js';
import { ConfigError } from '../options/config-error.js';
import {
  boolean,
  checkOptions,
  func,
  integer,
  nonEmptyString,
  type OptionRules,
  oneOf,
  string,
  withMethods,
} from '../options/rules.js';
import { ACK_MODES, type AckMode } from './explicit-ack.js';
import type { FetchSettings } from './fetch/fetch-request.js';
import type { GroupMembershipOptions } from './group/membership.js';
import { checkGroupOptions } from './group/options.js';

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
  /**
   * Bytes per fetch response. Default 52 428 800 (50 MiB), as Java; a request asks for no more than a quarter of
   * maxBufferedBytes either (8 MiB by default), so the next fetch is in flight while the last is processed.
   */
  fetchMaxBytes?: number;
  /** Bytes per partition per fetch response. Default 1 048 576, as Java. */
  maxPartitionFetchBytes?: number;
  /**
   * The memory bound: records fetched ahead, fetches in flight and the batch in the application's hands, in
   * bytes, together. Default 33 554 432 (32 MiB). Memory of finished responses kept for reuse is not counted:
   * up to as much again may lie idle (`metrics().responseMemory.idleBytes`).
   */
  maxBufferedBytes?: number;
  /**
   * Hand out views into reused response memory instead of copies (default false). Large Fetch responses are
   * always read into a small pool of reused memory (at most maxBufferedBytes idle), because fresh memory for
   * every response costs more CPU than decoding it on machines that give memory back to the kernel. By default
   * each batch's record bytes are copied out of that memory as they are decoded (one copy per batch), so a
   * record's `key`, `value` and `headers` stay valid for as long as the application holds them. With this option
   * on, nothing is copied (less CPU: 0.44 against 0.51 CPU s per 1M 100-byte records, 1.76 against 2.37 with
   * 1 KiB values, where measured: docs/ARCHITECTURE.md, "The fetch path") and
   * **the contract changes**: a record's `key`, `value` and `headers` (their keys and values) are then valid only
   * until its batch is finished (the next batch is asked for, or a `processBatches` handler returns), after which
   * a later response may be read into their memory; copy what you keep (`Buffer.from(record.value)`). Records of
   * compressed batches are decompressed into memory of their own and are not affected; offsets, timestamps and
   * the batch's own fields never are.
   */
  reuseFetchBuffers?: boolean;
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
  reuseFetchBuffers: boolean;
  revokeTimeoutMs: number;
  fetch: FetchSettings;
  logger: ConsumerLogger | undefined;
}

/** One rule per option (src/options/rules.ts); the compiler keeps the table and ConsumerOptions in step. */
const CONSUMER_RULES = {
  groupId: nonEmptyString,
  autoOffsetReset: oneOf('earliest', 'latest', 'none'),
  offsetOutOfRange: oneOf('clamp', 'earliest', 'latest', 'fail'),
  logger: func('(event, fields) => void'),
  isolationLevel: oneOf('read_uncommitted', 'read_committed'),
  autoCommit: boolean,
  autoCommitIntervalMs: integer(1),
  ackMode: oneOf(...ACK_MODES),
  commitRetries: integer(0),
  commitMetadata: string,
  offsetStore: withMethods('an OffsetStore', 'load', 'commit', 'close'),
  fetchMinBytes: integer(0),
  fetchMaxWaitMs: integer(0),
  fetchMaxBytes: integer(1),
  maxPartitionFetchBytes: integer(1),
  maxBufferedBytes: integer(1024),
  reuseFetchBuffers: boolean,
  fetchSessions: boolean,
  checkCrcs: boolean,
  clientRack: string,
  requestTimeoutMs: integer(1),
  revokeTimeoutMs: integer(0),
  group: (value, option) => checkGroupOptions(value, option),
  fetchVersion: integer(0),
} satisfies OptionRules<ConsumerOptions>;

/** Checks every option (unknown names too, to catch typos) and fills in the defaults. */
export function resolveConsumerOptions(o: ConsumerOptions, clientRequestTimeoutMs: number): ResolvedConsumerOptions {
  checkOptions<ConsumerOptions>(o, CONSUMER_RULES, { kind: 'consumer', name: 'options' });
  if (o.autoCommit === true && o.groupId === undefined) throw new ConfigError('autoCommit', 'needs a groupId');
  const autoOffsetReset = o.autoOffsetReset ?? 'latest';
  // As Java, a position out of range is handled as autoOffsetReset says, unless the store knows better.
  const defaultOutOfRange: OutOfRangePolicy =
    autoOffsetReset === 'none' ? 'fail' : (o.offsetStore?.outOfRangeDefault ?? autoOffsetReset);
  const isolationLevel = o.isolationLevel ?? 'read_uncommitted';
  return {
    groupId: o.groupId,
    autoOffsetReset,
    outOfRange: o.offsetOutOfRange ?? defaultOutOfRange,
    isolationLevel,
    autoCommit: o.autoCommit ?? o.groupId !== undefined,
    autoCommitIntervalMs: o.autoCommitIntervalMs ?? 5_000,
    ackMode: o.ackMode ?? 'auto',
    commitRetries: o.commitRetries ?? 5,
    commitMetadata: o.commitMetadata,
    maxBufferedBytes: o.maxBufferedBytes ?? 32 * 1024 * 1024,
    reuseFetchBuffers: o.reuseFetchBuffers ?? false,
    revokeTimeoutMs: o.revokeTimeoutMs ?? 30_000,
    fetch: {
      minBytes: o.fetchMinBytes ?? 1,
      maxWaitMs: o.fetchMaxWaitMs ?? 500,
      maxBytes: o.fetchMaxBytes ?? 50 * 1024 * 1024,
      maxPartitionBytes: o.maxPartitionFetchBytes ?? 1024 * 1024,
      readCommitted: isolationLevel === 'read_committed',
      rackId: o.clientRack ?? '',
      sessions: o.fetchSessions ?? true,
      maxVersion: o.fetchVersion,
      requestTimeoutMs: o.requestTimeoutMs ?? clientRequestTimeoutMs,
      checkCrc: o.checkCrcs ?? true,
      preferredReplicaTtlMs: 5 * 60_000,
    },
    logger: o.logger,
  };
}
