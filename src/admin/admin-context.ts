import type { Cluster } from '../cluster/cluster.js';
import type { CallOptions } from '../cluster/deadline.js';
import { Deadline } from '../cluster/deadline.js';
import type { Connection } from '../network/connection.js';

/**
 * What the cluster-level administration (configs, partitions, records, cluster, reassignments) needs: the
 * cluster and the default bound of a call and of each request in it.
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
