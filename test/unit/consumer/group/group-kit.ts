/**
 * What the membership tests share: options with fast timers, a wait for a condition, and the listener log. The
 * coordinator they talk to is test/fake-kafka's (its classic and KIP-848 groups), reached through the real
 * CoordinatorLink (`groupLink`).
 */
import type { GroupMembershipOptions, RebalanceListener } from '../../../../src/consumer/group/membership.js';
import { type ResolvedOptions, resolveOptions } from '../../../../src/consumer/group/options.js';

/** Options for tests: fast timers. */
export function testOptions(extra: Partial<GroupMembershipOptions> = {}): ResolvedOptions {
  return resolveOptions({
    groupId: 'g',
    sessionTimeoutMs: 1_000,
    heartbeatIntervalMs: 20,
    maxPollIntervalMs: 60_000,
    retryBackoff: { initialMs: 5, maxMs: 20 },
    requestTimeoutMs: 1_000,
    ...extra,
  });
}

export async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A listener that writes what it is told ("assigned 0,1", "revoked 2", "lost 0,1") into `log`. */
export function loggingListener(log: string[]): RebalanceListener {
  return {
    onAssigned: (ps) => void log.push(`assigned ${ps.map((p) => p.partition).join(',')}`),
    onRevoked: (ps) => void log.push(`revoked ${ps.map((p) => p.partition).join(',')}`),
    onLost: (ps) => void log.push(`lost ${ps.map((p) => p.partition).join(',')}`),
  };
}
