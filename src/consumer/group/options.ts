import type { BackoffOptions } from '../../cluster/backoff.js';
import { ConfigError } from '../../options/config-error.js';
import { type BuiltInAssignorName, createAssignor, type PartitionAssignor } from '../assignors/index.js';
import type { GroupMembershipOptions, GroupProtocol, Subscription } from './membership.js';

/** The options with every default filled in and every value checked. */
export interface ResolvedOptions {
  groupId: string;
  protocol: GroupProtocol;
  assignors: PartitionAssignor[];
  groupInstanceId: string | null;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  heartbeatIntervalMs: number;
  maxPollIntervalMs: number;
  rackId: string | null;
  serverAssignor: string | null;
  requestTimeoutMs: number;
  retryBackoff: BackoffOptions;
  metadataRefreshIntervalMs: number;
}

/** Java's defaults (ConsumerConfig): session.timeout.ms, heartbeat.interval.ms, max.poll.interval.ms. */
const DEFAULTS = {
  sessionTimeoutMs: 45_000,
  heartbeatIntervalMs: 3_000,
  maxPollIntervalMs: 300_000,
  requestTimeoutMs: 30_000,
  metadataRefreshIntervalMs: 300_000,
};

/** retry.backoff.ms to retry.backoff.max.ms, as Java's group coordinator clients. */
export const GROUP_RETRY_BACKOFF: BackoffOptions = { initialMs: 100, maxMs: 1_000 };

const INT32_MAX = 2 ** 31 - 1;

export function resolveOptions(options: GroupMembershipOptions): ResolvedOptions {
  if (typeof options.groupId !== 'string' || options.groupId === '') {
    throw new ConfigError('groupId', 'expected a non-empty string');
  }
  const protocol = options.protocol ?? 'classic';
  if (protocol !== 'classic' && protocol !== 'consumer') {
    throw new ConfigError('protocol', `expected 'classic' or 'consumer', got ${String(protocol)}`);
  }
  const maxPollIntervalMs = int('maxPollIntervalMs', options.maxPollIntervalMs, DEFAULTS.maxPollIntervalMs, 1);
  const resolved: ResolvedOptions = {
    groupId: options.groupId,
    protocol,
    assignors: resolveAssignors(options.assignors ?? ['range', 'cooperative-sticky']),
    groupInstanceId: optionalString('groupInstanceId', options.groupInstanceId),
    sessionTimeoutMs: int('sessionTimeoutMs', options.sessionTimeoutMs, DEFAULTS.sessionTimeoutMs, 1),
    rebalanceTimeoutMs: int('rebalanceTimeoutMs', options.rebalanceTimeoutMs, maxPollIntervalMs, 1),
    heartbeatIntervalMs: int('heartbeatIntervalMs', options.heartbeatIntervalMs, DEFAULTS.heartbeatIntervalMs, 1),
    maxPollIntervalMs,
    rackId: optionalString('rackId', options.rackId),
    serverAssignor: optionalString('serverAssignor', options.serverAssignor),
    requestTimeoutMs: int('requestTimeoutMs', options.requestTimeoutMs, DEFAULTS.requestTimeoutMs, 1),
    retryBackoff: options.retryBackoff ?? GROUP_RETRY_BACKOFF,
    metadataRefreshIntervalMs: int(
      'metadataRefreshIntervalMs',
      options.metadataRefreshIntervalMs,
      DEFAULTS.metadataRefreshIntervalMs,
      1,
    ),
  };
  if (protocol === 'classic' && resolved.heartbeatIntervalMs >= resolved.sessionTimeoutMs) {
    // As Java's ConsumerConfig: a member that heartbeats less often than its session lasts is always dead.
    throw new ConfigError('heartbeatIntervalMs', 'must be lower than sessionTimeoutMs');
  }
  return resolved;
}

export function checkSubscription(subscription: Subscription): void {
  const hasTopics = subscription.topics !== undefined;
  const hasPattern = subscription.pattern !== undefined;
  if (hasTopics === hasPattern) throw new ConfigError('subscription', 'give either topics or pattern');
  if (hasTopics) {
    if (!Array.isArray(subscription.topics)) throw new ConfigError('subscription.topics', 'expected an array');
    for (const t of subscription.topics) {
      if (typeof t !== 'string' || t === '') throw new ConfigError('subscription.topics', `invalid topic ${String(t)}`);
    }
  } else if (!(subscription.pattern instanceof RegExp)) {
    throw new ConfigError('subscription.pattern', 'expected a RegExp');
  }
}

/** One instance per name; the rebalance protocol must be one every assignor supports (Java's rule). */
function resolveAssignors(list: ReadonlyArray<PartitionAssignor | BuiltInAssignorName>): PartitionAssignor[] {
  if (!Array.isArray(list) || list.length === 0) throw new ConfigError('assignors', 'expected at least one assignor');
  const assignors = list.map((a) => (typeof a === 'string' ? createAssignor(a as BuiltInAssignorName) : a));
  const names = new Set<string>();
  for (const a of assignors) {
    if (a === undefined || typeof a.name !== 'string' || typeof a.assign !== 'function') {
      throw new ConfigError('assignors', 'expected built-in assignor names or PartitionAssignor objects');
    }
    if (names.has(a.name)) throw new ConfigError('assignors', `assignor ${a.name} is listed twice`);
    names.add(a.name);
  }
  return assignors;
}

function int(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > INT32_MAX) {
    throw new ConfigError(name, `expected an integer from ${min} to ${INT32_MAX}, got ${String(value)}`);
  }
  return value;
}

function optionalString(name: string, value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value === '') throw new ConfigError(name, 'expected a non-empty string or null');
  return value;
}
