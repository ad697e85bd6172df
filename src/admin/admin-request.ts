import { ProtocolError } from '../../codecs/errors.js';
import type { ApiDef, RequestInput, ResponseOf } from '../../protocol/schema.js';
import { Deadline } from '../cluster/deadline.js';
import type { AdminCallOptions, AdminContext } from './admin-context.js';

export type { AdminCallOptions, AdminContext } from './admin-context.js';

/**
 * One admin request that any broker can answer (a KRaft broker forwards writes to the controller): the ACL,
 * SCRAM credential and client quota calls. Bounded by the call's deadline and signal; the version is the
 * highest both sides speak unless a test forces one.
 */

export async function adminRequest<A extends ApiDef>(
  ctx: AdminContext,
  api: A,
  body: (version: number) => RequestInput<A>,
  options: AdminCallOptions,
): Promise<{ response: ResponseOf<A>; version: number }> {
  const deadline = Deadline.of(api.name, options, ctx.requestTimeoutMs);
  const connection = await deadline.race(ctx.cluster.anyConnection());
  const version = options.version ?? connection.versionFor(api);
  // A forced version outside either side's range is refused by the connection with UnsupportedVersionError.
  const response = await connection.request(api, body(version), {
    ...deadline.requestOptions(ctx.requestTimeoutMs),
    version,
  });
  return { response, version };
}

/** A response must answer each item of the request once; a broker that does not is reported, not trusted. */
export function checkAnswerCount(api: ApiDef, version: number, answers: number, asked: number, what: string): void {
  if (answers !== asked) {
    throw new ProtocolError(`${answers} results for ${asked} ${what}`, { api: api.name, version });
  }
}
