import { TidemarkError } from '../../codecs/errors.js';

/**
 * Several resources of one admin call failed (topics, brokers, groups, ACL bindings or filters, users, quota
 * entities…); each one's own typed error is in `errors`, keyed by how the call names the resource (`type:name`),
 * and what the others produced is in `succeeded`, so nothing is lost. Retriable only when every failure is.
 * (When a single resource fails, its error is thrown as it is, naming the resource in its context.)
 */
export class ResourceErrors<T = unknown> extends TidemarkError {
  override name = 'ResourceErrors';

  constructor(
    readonly operation: string,
    readonly errors: ReadonlyMap<string, TidemarkError>,
    /** What the resources that did succeed produced. */
    readonly succeeded: readonly T[],
    /** What the resources are, for the message ("topics" for TopicErrors). */
    resources = 'resources',
  ) {
    const list = [...errors].map(([resource, err]) => `${resource}: ${label(err)}`).join(', ');
    super(`${operation} failed for ${errors.size} ${resources} (${list})`, {
      retriable: [...errors.values()].every((e) => e.retriable),
      cause: errors.values().next().value,
    });
  }
}

function label(err: TidemarkError): string {
  return 'errorName' in err && typeof err.errorName === 'string' ? err.errorName : err.message;
}

/** Throws the single failure as itself, several as ResourceErrors; returns when there are none. */
export function throwResourceErrors<T>(operation: string, errors: Map<string, TidemarkError>, succeeded: T[]): void {
  if (errors.size === 1) throw errors.values().next().value as TidemarkError;
  if (errors.size > 1) throw new ResourceErrors(operation, errors, succeeded);
}
