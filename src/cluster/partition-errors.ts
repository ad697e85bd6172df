import { TidemarkError } from '../../codecs/errors.js';

export interface TopicPartition {
  topic: string;
  partition: number;
}

/** One partition that a call could not serve, and why. */
export interface PartitionFailure {
  topic: string;
  partition: number;
  error: TidemarkError;
}

/**
 * Partitions of one call failed for different reasons; each partition's own typed error is in `failures`.
 * Retriable only when every one of them is. (When they all failed the same way, that error is thrown as it is.)
 */
export class PartitionErrors<T = unknown> extends TidemarkError {
  override name = 'PartitionErrors';

  constructor(
    readonly operation: string,
    readonly failures: readonly PartitionFailure[],
    /** What the partitions that did succeed produced. */
    readonly succeeded: readonly T[],
  ) {
    const shown = failures.slice(0, 10).map((f) => `${f.topic}-${f.partition}: ${errorLabel(f.error)}`);
    const more = failures.length > shown.length ? `, and ${failures.length - shown.length} more` : '';
    super(`${operation} failed for ${failures.length} partitions (${shown.join(', ')}${more})`, {
      retriable: failures.every((f) => f.error.retriable),
      cause: failures[0]?.error,
    });
  }
}

function errorLabel(err: TidemarkError): string {
  return 'errorName' in err && typeof err.errorName === 'string' ? err.errorName : err.name;
}

/** The key partitions are compared by in maps: `topic` and partition joined by a character topics cannot hold. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/**
 * Throws when some partitions failed: their common error when they all failed the same way (a group-level
 * refusal such as UNKNOWN_MEMBER_ID comes back once per partition), else PartitionErrors.
 */
export function throwPartitionFailures<T>(operation: string, failures: PartitionFailure[], succeeded: T[]): void {
  if (failures.length === 0) return;
  const first = failures[0].error;
  const same = failures.every((f) => f.error.constructor === first.constructor && sameCode(f.error, first));
  if (same) throw first;
  throw new PartitionErrors(operation, failures, succeeded);
}

function sameCode(a: TidemarkError, b: TidemarkError): boolean {
  const codeA = (a as { code?: unknown }).code;
  const codeB = (b as { code?: unknown }).code;
  return codeA === codeB && (codeA !== undefined || a.message === b.message);
}
