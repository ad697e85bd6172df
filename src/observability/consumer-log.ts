/**
 * A consumer's trouble in the client's log: warnings (what it retries on its own) and commits that failed for
 * good. The positions a consumer moves on its own are logged by the consumer itself (src/consumer/events.ts).
 */
import type { Consumer } from '../consumer/consumer.js';
import type { Logger } from './logger.js';

/** Logs `consumer`'s `warning` and `commit-failed` events through `logger`. */
export function logConsumerTrouble(consumer: Consumer, logger: Logger): void {
  const groupId = consumer.groupId;
  consumer.on('warning', (e) => logger('consumer:warning', { groupId, ...e }));
  consumer.on('commit-failed', (e) =>
    logger('consumer:commit-failed', {
      groupId: e.groupId,
      reason: e.reason,
      offsets: e.offsets,
      error: e.error,
      message: `commit of ${e.offsets.length} offsets failed for good: ${e.error.message}`,
    }),
  );
}
