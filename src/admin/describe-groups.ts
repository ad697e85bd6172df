import { TidemarkError } from '../../codecs/errors.js';
import { DescribeGroups, type DescribeGroupsResponse } from '../../protocol/apis/describe-groups.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { type CallOptions, Deadline } from '../cluster/deadline.js';
import { checkGroupId } from '../commit/offset-commit.js';
import { throwGroupFailures } from '../coordinator/group-errors.js';
import { type GroupAnswers, perCoordinator } from '../coordinator/per-coordinator.js';
import type { Connection } from '../network/connection.js';
import { type DescribeAsk, describeConsumerGroupsAt } from './consumer-group-describe.js';
import { decodeAssignment, decodeSubscribedTopics } from './consumer-protocol-bytes.js';
import type { GroupAdminContext } from './group-context.js';
import { authorizedOperationsOf, type GroupDescription, operationsAsked } from './group-description.js';
import { type ListedGroup, listGroupsAt } from './list-groups.js';

export type { GroupDescription, GroupMemberDescription } from './group-description.js';

export interface DescribeGroupsOptions extends CallOptions {
  /** Also say which operations this client may perform on each group (its `authorizedOperations`). */
  includeAuthorizedOperations?: boolean;
}

/** Whether a group state means the group has no live members (its offsets may then be changed from outside). */
export function isInactive(state: string): boolean {
  return state === 'Empty' || state === 'Dead';
}

/**
 * Describes groups at their coordinators (one request per coordinator). A group that does not exist is
 * described as Dead with no members, on every broker version (Kafka 4.x answers GROUP_ID_NOT_FOUND from v6).
 */
export async function describeGroups(
  ctx: GroupAdminContext,
  groupIds: readonly string[],
  options: DescribeGroupsOptions = {},
): Promise<GroupDescription[]> {
  for (const g of groupIds) checkGroupId(g);
  const deadline = Deadline.of('DescribeGroups', options, ctx.requestTimeoutMs);
  const ask: DescribeAsk = { deadline, requestTimeoutMs: ctx.requestTimeoutMs, ...operationsAsked(options) };
  const { results, failures } = await perCoordinator(ctx.coordinators, groupIds, deadline, (connection, node, ids) =>
    describeAt(connection, node.nodeId, ids, ask),
  );
  throwGroupFailures('DescribeGroups', failures, results);
  return [...new Set(groupIds)].map((g) => results.get(g)!);
}

async function describeAt(
  connection: Connection,
  nodeId: number,
  groupIds: string[],
  ask: DescribeAsk,
): Promise<GroupAnswers<GroupDescription>> {
  const { deadline, requestTimeoutMs } = ask;
  const version = connection.versionFor(DescribeGroups);
  if (ask.includeAuthorizedOperations && version < 3) {
    throw new TidemarkError(`authorized operations need DescribeGroups v3+, the broker offers v${version}`);
  }
  const response = await connection.request(
    DescribeGroups,
    { groups: groupIds, includeAuthorizedOperations: ask.includeAuthorizedOperations },
    { ...deadline.requestOptions(requestTimeoutMs), version },
  );
  const answers: GroupAnswers<GroupDescription> = new Map();
  const consumerGroups: string[] = [];
  let listed: ListedGroup[] | undefined;
  for (const g of response.groups) {
    const unknown = g.errorCode === ErrorCode.GROUP_ID_NOT_FOUND || (g.errorCode === 0 && g.groupState === 'Dead');
    if (unknown) {
      // Not a classic group (KIP-848: GROUP_ID_NOT_FOUND from v6, Dead before), or no group at all: the
      // coordinator's group list tells which.
      listed ??= await listGroupsAt(connection, nodeId, {}, deadline, requestTimeoutMs);
      const found = listed.find((l) => l.groupId === g.groupId);
      if (found?.type === 'consumer') consumerGroups.push(g.groupId);
      answers.set(g.groupId, found === undefined ? dead(g.groupId, nodeId) : fromListing(found));
      continue;
    }
    if (g.errorCode !== 0) {
      const context = { api: 'DescribeGroups', version, groupId: g.groupId };
      answers.set(g.groupId, kafkaError(g.errorCode, { message: g.errorMessage, context }) as TidemarkError);
      continue;
    }
    answers.set(g.groupId, fromDescribed(g, nodeId, ask));
  }
  if (consumerGroups.length > 0) {
    const described = await describeConsumerGroupsAt(connection, nodeId, consumerGroups, ask);
    for (const [groupId, answer] of described) answers.set(groupId, answer);
  }
  return answers;
}

type DescribedGroup = DescribeGroupsResponse['groups'][number];

function fromDescribed(g: DescribedGroup, nodeId: number, ask: DescribeAsk): GroupDescription {
  const consumer = g.protocolType === 'consumer';
  return {
    groupId: g.groupId,
    state: g.groupState,
    // DescribeGroups describes classic groups only; a KIP-848 group answers GROUP_ID_NOT_FOUND or Dead.
    type: 'classic',
    protocolType: g.protocolType,
    assignor: g.protocolData,
    members: g.members.map((m) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      assignment: consumer ? orEmpty(() => decodeAssignment(m.memberAssignment)) : [],
      subscribedTopics: consumer ? orEmpty(() => decodeSubscribedTopics(m.memberMetadata)) : [],
    })),
    coordinator: nodeId,
    ...authorizedOperationsOf(g.authorizedOperations, ask),
  };
}

function fromListing(l: ListedGroup): GroupDescription {
  return {
    groupId: l.groupId,
    state: l.state ?? 'Unknown',
    type: l.type,
    protocolType: l.protocolType,
    assignor: '',
    members: undefined,
    coordinator: l.coordinator,
  };
}

function dead(groupId: string, nodeId: number): GroupDescription {
  return { groupId, state: 'Dead', type: undefined, protocolType: '', assignor: '', members: [], coordinator: nodeId };
}

/** A member whose client put other bytes under protocol type `consumer` is shown without its partitions. */
function orEmpty<T>(decode: () => T[]): T[] {
  try {
    return decode();
  } catch {
    return [];
  }
}
