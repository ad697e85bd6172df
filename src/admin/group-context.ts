import type { BackoffOptions } from '../cluster/backoff.js';
import type { Cluster } from '../cluster/cluster.js';
import type { Coordinators } from '../coordinator/coordinators.js';

/** What the group and offset administration needs: the cluster, the coordinator cache and default bounds. */
export interface GroupAdminContext {
  cluster: Cluster;
  coordinators: Coordinators;
  /** Default bound of a whole call, and the bound of each request in it. */
  requestTimeoutMs: number;
  backoff?: BackoffOptions;
}
