import { TidemarkError } from '../../codecs/errors.js';
import type { KafkaError } from '../../protocol/kafka-error.js';

/**
 * More than one topic of a batch failed; each topic's own KafkaError is in `errors`. Retriable only when
 * every one of them is. (When a single topic fails, its KafkaError is thrown as it is.)
 */
export class TopicErrors<T = unknown> extends TidemarkError {
  override name = 'TopicErrors';

  constructor(
    readonly operation: string,
    readonly errors: ReadonlyMap<string, KafkaError>,
    /** What the topics that did succeed produced. */
    readonly succeeded: readonly T[],
  ) {
    const list = [...errors].map(([topic, err]) => `${topic}: ${err.errorName}`).join(', ');
    super(`${operation} failed for ${errors.size} topics (${list})`, {
      retriable: [...errors.values()].every((e) => e.retriable),
    });
  }
}

/** Throws the single failure as itself, several as TopicErrors; returns when there are none. */
export function throwTopicErrors<T>(operation: string, errors: Map<string, KafkaError>, succeeded: T[]): void {
  if (errors.size === 1) throw errors.values().next().value as KafkaError;
  if (errors.size > 1) throw new TopicErrors(operation, errors, succeeded);
}
