import { ListGroups } from '../../protocol/apis/list-groups.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { type CallOptions, Deadline, retry } from '../cluster/deadline.js';
import { COORDINATOR_BACKOFF } from '../coordinator/coordinators.js';
import { clientVersions } from '../network/api-versions.js';
import type { Connection } from '../network/connection.js';
import { UnsupportedVersionError } from '../network/errors.js';
import type { GroupAdminContext } from './group-context.js';

export interface ListedGroup {
  groupId: string;
  /** `consumer` for consumer groups of either protocol, `connect`…, or empty for a group that only holds offsets. */
  protocolType: string;
  /** Empty, Stable, PreparingRebalance…; undefined before ListGroups v4. */
  state: string | undefined;
  /** classic, consumer (KIP-848), share or streams; undefined before ListGroups v5. */
  type: string | undefined;
  /** The node id of the broker that coordinates the group. */
  coordinator: number;
}

export interface ListGroupsOptions extends CallOptions {
  /** Only groups in these states (ListGroups v4+), e.g. `['Empty']`. */
  states?: readonly string[];
  /** Only groups of these types (ListGroups v5+), e.g. `['classic']`. */
  types?: readonly string[];
}

/** Every group of the cluster: each broker lists the groups it coordinates, so every broker is asked. */
export async function listGroups(ctx: GroupAdminContext, options: ListGroupsOptions = {}): Promise<ListedGroup[]> {
  const deadline = Deadline.of('ListGroups', options, ctx.requestTimeoutMs);
  const md = await deadline.race(ctx.cluster.metadata({ topics: [] }));
  const lists = await Promise.all(
    [...md.brokers.keys()].map((nodeId) =>
      retry(
        deadline,
        async () => {
          const connection = await deadline.race(ctx.cluster.connectionTo(nodeId));
          return listGroupsAt(connection, nodeId, options, deadline, ctx.requestTimeoutMs);
        },
        { backoff: ctx.backoff ?? COORDINATOR_BACKOFF },
      ),
    ),
  );
  return lists.flat().sort((a, b) => a.groupId.localeCompare(b.groupId));
}

/** The groups one broker coordinates. */
export async function listGroupsAt(
  connection: Connection,
  nodeId: number,
  filter: { states?: readonly string[]; types?: readonly string[] },
  deadline: Deadline,
  requestTimeoutMs: number,
): Promise<ListedGroup[]> {
  const version = connection.versionFor(ListGroups);
  const states = filter.states ?? [];
  const types = filter.types ?? [];
  if (states.length > 0 && version < 4)
    unsupported('filtering groups by state needs ListGroups v4+', version, connection);
  if (types.length > 0 && version < 5)
    unsupported('filtering groups by type needs ListGroups v5+', version, connection);
  const response = await connection.request(
    ListGroups,
    { statesFilter: [...states], typesFilter: [...types] },
    { ...deadline.requestOptions(requestTimeoutMs), version },
  );
  if (response.errorCode !== 0) {
    throw kafkaError(response.errorCode, { context: { api: 'ListGroups', version, broker: nodeId } });
  }
  return response.groups.map((g) => ({
    groupId: g.groupId,
    protocolType: g.protocolType,
    state: version >= 4 ? g.groupState : undefined,
    type: version >= 5 ? g.groupType : undefined,
    coordinator: nodeId,
  }));
}

function unsupported(what: string, version: number, connection: Connection): never {
  const err = new UnsupportedVersionError('ListGroups', ListGroups.key, clientVersions(ListGroups), undefined);
  err.message = `${what}, but v${version} is in use with broker ${connection.address}`;
  throw err;
}
