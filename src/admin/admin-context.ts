import { ProtocolError } from '../../codecs/errors.js';
import type { ApiDef, RequestInput, ResponseOf } from '../../protocol/schema.js';
import type { Cluster } from '../cluster/cluster.js';
import type { CallOptions } from '../cluster/deadline.js';
import { Deadline } from '../cluster/deadline.js';
import type { Connection } from '../network/connection.js';

/**
 * What the cluster-level administration (configs, partitions, records, cluster, reassignments, ACLs, SCRAM
 * credentials, quotas) needs: the cluster and the default bound of a call and of each request in it; and the
 * one-request call most of it is made of.
 */
export interface AdminContext {
  cluster: Cluster;
  requestTimeoutMs: number;
}

/** Options of every admin call: its bound and signal, and (for tests of each version) a forced version. */
export interface AdminCallOptions extends CallOptions {
  /** Forces the request's version; the default is the highest both sides speak. */
  version?: number;
}

/** A call's deadline from its options, the context supplying the default. */
export function deadlineOf(ctx: AdminContext, operation: string, options: CallOptions): Deadline {
  return Deadline.of(operation, options, ctx.requestTimeoutMs);
}

/** A broker's connection by node id, or any broker's when `nodeId` is undefined; bounded by the deadline. */
export function connectionFor(ctx: AdminContext, nodeId: number | undefined, deadline: Deadline): Promise<Connection> {
  return deadline.race(nodeId === undefined ? ctx.cluster.anyConnection() : ctx.cluster.connectionTo(nodeId));
}

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
  const deadline = deadlineOf(ctx, api.name, options);
  const connection = await connectionFor(ctx, undefined, deadline);
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
