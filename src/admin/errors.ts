import type { KafkaError } from '../../protocol/kafka-error.js';
import { ResourceErrors } from './resource-errors.js';

/**
 * More than one topic of a batch failed; each topic's own KafkaError is in `errors`, keyed by topic name. The
 * topics' case of ResourceErrors (an `instanceof ResourceErrors` too). Retriable only when every one of them is.
 * (When a single topic fails, its KafkaError is thrown as it is.)
 */
export class TopicErrors<T = unknown> extends ResourceErrors<T> {
  override name = 'TopicErrors';
  declare readonly errors: ReadonlyMap<string, KafkaError>;

  constructor(operation: string, errors: ReadonlyMap<string, KafkaError>, succeeded: readonly T[]) {
    super(operation, errors, succeeded, 'topics');
  }
}

/** Throws the single failure as itself, several as TopicErrors; returns when there are none. */
export function throwTopicErrors<T>(operation: string, errors: Map<string, KafkaError>, succeeded: T[]): void {
  if (errors.size === 1) throw errors.values().next().value as KafkaError;
  if (errors.size > 1) throw new TopicErrors(operation, errors, succeeded);
}
