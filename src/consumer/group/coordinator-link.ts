import type { ApiDef, RequestInput, ResponseOf } from '../../../protocol/schema.js';
import { Deadline } from '../../cluster/deadline.js';
import type { ClusterMetadata, MetadataQuery } from '../../cluster/metadata.js';
import { type Coordinators, shouldRediscover } from '../../coordinator/coordinators.js';
import { type CoordinatorNode, isCoordinatorMovedCode } from '../../coordinator/find-coordinator.js';
import type { Connection } from '../../network/connection.js';
import type { BrokerAddress } from '../../network/errors.js';

/** What membership needs of the cluster: metadata, and connections of its own for requests that park. */
export interface GroupCluster {
  metadata(query?: MetadataQuery): Promise<ClusterMetadata>;
  readonly pool: { openDedicated(address: BrokerAddress): Promise<Connection> };
}

export interface LinkRequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Sends on this member's own connection rather than the shared one: JoinGroup and SyncGroup wait at the
   * coordinator for the whole group, and a broker answers one connection's requests in order, so on the shared
   * connection every fetch and commit to that broker would wait with them (Java keeps a separate coordinator
   * connection for the same reason).
   */
  parked?: boolean;
}

/**
 * How a member speaks to its group coordinator: every request goes to the coordinator the cache names, and a
 * response or failure that says the coordinator moved (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, a broken
 * connection, a timeout) makes the next request look it up again. Retrying is the caller's business: what to do
 * after a failed JoinGroup is not what to do after a failed heartbeat.
 */
export interface GroupTransport {
  request<A extends ApiDef>(
    api: A,
    body: (version: number) => RequestInput<A>,
    options: LinkRequestOptions,
  ): Promise<ResponseOf<A>>;
  /** Forgets the coordinator (and drops the own connection to it). */
  coordinatorMoved(): void;
  metadata(query?: MetadataQuery): Promise<ClusterMetadata>;
  close(): Promise<void>;
}

export class CoordinatorLink implements GroupTransport {
  private own: { connection: Connection; node: CoordinatorNode } | undefined;
  private lastNode: number | undefined;

  constructor(
    private readonly groupId: string,
    private readonly cluster: GroupCluster,
    private readonly coordinators: Coordinators,
  ) {}

  async request<A extends ApiDef>(
    api: A,
    body: (version: number) => RequestInput<A>,
    options: LinkRequestOptions,
  ): Promise<ResponseOf<A>> {
    const deadline = new Deadline(api.name, options.timeoutMs, options.signal);
    const { connection, node } = options.parked
      ? await this.ownConnection(deadline)
      : await this.coordinators.connection('group', this.groupId, deadline);
    this.lastNode = node.nodeId;
    try {
      const version = connection.versionFor(api);
      const response = (await connection.request(api, body(version), {
        version,
        timeoutMs: Math.max(1, deadline.remaining()),
        signal: options.signal,
      })) as ResponseOf<A> & { errorCode?: number };
      if (typeof response.errorCode === 'number' && isCoordinatorMovedCode(response.errorCode)) {
        this.coordinatorMoved();
      }
      return response;
    } catch (err) {
      if (shouldRediscover(err)) this.coordinatorMoved();
      throw err;
    }
  }

  coordinatorMoved(): void {
    this.coordinators.invalidate('group', this.groupId, this.lastNode);
    this.dropOwn();
  }

  metadata(query?: MetadataQuery): Promise<ClusterMetadata> {
    return this.cluster.metadata(query);
  }

  async close(): Promise<void> {
    const own = this.own;
    this.own = undefined;
    await own?.connection.close();
  }

  private async ownConnection(deadline: Deadline): Promise<{ connection: Connection; node: CoordinatorNode }> {
    const node = (await this.coordinators.find('group', [this.groupId], deadline)).get(this.groupId)!;
    const own = this.own;
    if (own !== undefined && own.node.nodeId === node.nodeId && !own.connection.isClosed) return own;
    this.dropOwn();
    const opening = this.cluster.pool.openDedicated({ ...node });
    try {
      const connection = await deadline.race(opening);
      this.own = { connection, node };
      return this.own;
    } catch (err) {
      // A connection that opens after the deadline gave up on it would never be closed otherwise.
      opening.then((c) => c.close()).catch(() => {});
      this.coordinators.invalidate('group', this.groupId, node.nodeId);
      throw err;
    }
  }

  private dropOwn(): void {
    const own = this.own;
    this.own = undefined;
    // Closing rejects whatever is parked on it (a JoinGroup to a coordinator that moved).
    own?.connection.close().catch(() => {});
  }
}
