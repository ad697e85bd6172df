import { Coordinators } from '../../../src/coordinator/coordinators.js';
import { type BrokerAddress, ConnectionError } from '../../../src/network/errors.js';
import { FakeConnection, type Handler } from '../cluster/fake-connection.js';

export const FAST = { initialMs: 1, maxMs: 5 };

/**
 * Fake brokers behind a Coordinators cache: node 0 answers FindCoordinator (`findHandler`), and every node
 * answers group requests with `groupHandler`. `down` makes connecting to a node fail.
 */
export function fakeGroupCluster(options: {
  findHandler: Handler;
  groupHandler?: Handler;
  versions?: Record<string, number>;
}) {
  const versions = { FindCoordinator: 6, OffsetCommit: 9, OffsetFetch: 9, Metadata: 12, ...options.versions };
  const finder = new FakeConnection(0, versions, options.findHandler);
  const nodes = new Map<number, FakeConnection>();
  const down = new Set<number>();
  const node = (id: number) => {
    const c = nodes.get(id) ?? new FakeConnection(id, versions, options.groupHandler ?? (() => new Error('unused')));
    nodes.set(id, c);
    return c;
  };
  const cluster = {
    anyConnection: async () => finder.asConnection,
    pool: {
      get: async (address: BrokerAddress) => {
        if (down.has(address.nodeId!)) throw new ConnectionError('connection refused', address);
        return node(address.nodeId!).asConnection;
      },
    },
  };
  const coordinators = new Coordinators(cluster, { requestTimeoutMs: 1_000, backoff: FAST });
  return { coordinators, finder, node, down };
}

/** A FindCoordinator answer (v4+) naming `nodeId` for every key asked. */
export function findAnswer(body: { coordinatorKeys: string[] }, nodeId: number | ((key: string) => number)) {
  return {
    coordinators: body.coordinatorKeys.map((key) => ({
      key,
      nodeId: typeof nodeId === 'number' ? nodeId : nodeId(key),
      host: 'h',
      port: 1,
      errorCode: 0,
    })),
  };
}
