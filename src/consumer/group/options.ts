/**
 * The group membership's options: the rule each value must pass (GROUP_RULES, also used for the consumer's
 * nested `group` options), the refusal of classic-only options under KIP-848, and Java's defaults
 * (resolveOptions). The subscription's check lives here too.
 */

import type { BackoffOptions } from '../../cluster/backoff.js';
import { ConfigError } from '../../options/config-error.js';
import {
  checkOptions,
  integer,
  nested,
  nonEmptyString,
  nonEmptyStringOrNull,
  type OptionRules,
  oneOf,
} from '../../options/rules.js';
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

/** The group options as the consumer takes them (`group: {...}`): its own `groupId` comes from the consumer's. */
export type ConsumerGroupOptions = Omit<GroupMembershipOptions, 'groupId'>;

const BACKOFF_RULES = { initialMs: integer(0), maxMs: integer(0) } satisfies OptionRules<BackoffOptions>;

/**
 * One rule per option (src/options/rules.ts); the compiler keeps the table and GroupMembershipOptions in step.
 * `groupId` is checked on its own: the consumer's options carry it outside `group`.
 */
const GROUP_RULES = {
  protocol: oneOf('classic', 'consumer'),
  assignors: (value, option) => void resolveAssignors(value, option),
  groupInstanceId: nonEmptyStringOrNull,
  sessionTimeoutMs: integer(1),
  rebalanceTimeoutMs: integer(1),
  heartbeatIntervalMs: integer(1),
  maxPollIntervalMs: integer(1),
  rackId: nonEmptyStringOrNull,
  serverAssignor: nonEmptyStringOrNull,
  requestTimeoutMs: integer(1),
  retryBackoff: nested(BACKOFF_RULES, 'retryBackoff'),
  metadataRefreshIntervalMs: integer(1),
} satisfies OptionRules<ConsumerGroupOptions>;

/** What each classic-only option is left to under KIP-848, for the error that names it. */
const CLASSIC_ONLY = {
  sessionTimeoutMs: "the coordinator's group.consumer.session.timeout.ms",
  heartbeatIntervalMs: "the coordinator's group.consumer.heartbeat.interval.ms",
  assignors: 'the coordinator; choose its assignor with serverAssignor',
} as const;

/**
 * Checks the consumer's `group` options (errors name `group.sessionTimeoutMs`) and, as Java's ConsumerConfig,
 * refuses those the consumer protocol (KIP-848) has no use for instead of ignoring them. The membership itself
 * (resolveOptions) keeps them: its KIP-848 heartbeat falls back to heartbeatIntervalMs.
 */
export function checkGroupOptions(options: unknown, name: string): asserts options is ConsumerGroupOptions {
  checkOptions<ConsumerGroupOptions>(options, GROUP_RULES, { kind: 'group', name, prefix: `${name}.` });
  if (options.protocol !== 'consumer') return;
  for (const [option, decidedBy] of Object.entries(CLASSIC_ONLY)) {
    if (options[option as keyof typeof CLASSIC_ONLY] !== undefined) {
      throw new ConfigError(
        `${name}.${option}`,
        `is a classic-protocol option; with protocol 'consumer' it is decided by ${decidedBy}`,
      );
    }
  }
}

export function resolveOptions(options: GroupMembershipOptions): ResolvedOptions {
  const { groupId, ...group } = options;
  nonEmptyString(groupId, 'groupId');
  checkOptions<ConsumerGroupOptions>(group, GROUP_RULES, { kind: 'group', name: 'options' });
  const maxPollIntervalMs = group.maxPollIntervalMs ?? DEFAULTS.maxPollIntervalMs;
  const resolved: ResolvedOptions = {
    groupId,
    protocol: group.protocol ?? 'classic',
    assignors: resolveAssignors(group.assignors ?? ['range', 'cooperative-sticky'], 'assignors'),
    groupInstanceId: group.groupInstanceId ?? null,
    sessionTimeoutMs: group.sessionTimeoutMs ?? DEFAULTS.sessionTimeoutMs,
    rebalanceTimeoutMs: group.rebalanceTimeoutMs ?? maxPollIntervalMs,
    heartbeatIntervalMs: group.heartbeatIntervalMs ?? DEFAULTS.heartbeatIntervalMs,
    maxPollIntervalMs,
    rackId: group.rackId ?? null,
    serverAssignor: group.serverAssignor ?? null,
    requestTimeoutMs: group.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    // A partial backoff keeps the default of the bound it leaves out.
    retryBackoff: { ...GROUP_RETRY_BACKOFF, ...definedOnly(group.retryBackoff) },
    metadataRefreshIntervalMs: group.metadataRefreshIntervalMs ?? DEFAULTS.metadataRefreshIntervalMs,
  };
  if (resolved.protocol === 'classic' && resolved.heartbeatIntervalMs >= resolved.sessionTimeoutMs) {
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
function resolveAssignors(list: unknown, option: string): PartitionAssignor[] {
  if (!Array.isArray(list) || list.length === 0) throw new ConfigError(option, 'expected at least one assignor');
  const assignors = list.map((a) => (typeof a === 'string' ? createAssignor(a as BuiltInAssignorName) : a));
  const names = new Set<string>();
  for (const a of assignors as Array<PartitionAssignor | undefined>) {
    if (a === undefined || typeof a.name !== 'string' || typeof a.assign !== 'function') {
      throw new ConfigError(option, 'expected built-in assignor names or PartitionAssignor objects');
    }
    if (names.has(a.name)) throw new ConfigError(option, `assignor ${a.name} is listed twice`);
    names.add(a.name);
  }
  return assignors;
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
