import { TidemarkError } from '../../codecs/errors.js';

/**
 * Several groups of one call failed; each group's own typed error is in `errors`. Retriable only when every
 * one of them is. (When a single group fails, its error is thrown as it is.)
 */
export class GroupErrors<T = unknown> extends TidemarkError {
  override name = 'GroupErrors';

  constructor(
    readonly operation: string,
    readonly errors: ReadonlyMap<string, TidemarkError>,
    /** What the groups that did succeed produced, by group id. */
    readonly succeeded: ReadonlyMap<string, T>,
  ) {
    const list = [...errors].map(([group, err]) => `${group}: ${label(err)}`).join(', ');
    super(`${operation} failed for ${errors.size} groups (${list})`, {
      retriable: [...errors.values()].every((e) => e.retriable),
      cause: errors.values().next().value,
    });
  }
}

function label(err: TidemarkError): string {
  return 'errorName' in err && typeof err.errorName === 'string' ? err.errorName : err.message;
}

/** Throws the single failure as itself, several as GroupErrors; returns when there are none. */
export function throwGroupFailures<T>(
  operation: string,
  errors: Map<string, TidemarkError>,
  succeeded: Map<string, T>,
): void {
  if (errors.size === 1) throw errors.values().next().value as TidemarkError;
  if (errors.size > 1) throw new GroupErrors(operation, errors, succeeded);
}
