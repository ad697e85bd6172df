/**
 * The admin calls on groups and partitions in kafkajs's shapes: describeGroups, deleteGroups (each group's
 * outcome, failures as KafkaJSDeleteGroupsError as kafkajs throws them) and createPartitions.
 */
import { type Client, GroupErrors, isKafkaError, type TidemarkError, TopicErrors } from '../index.js';
import {
  KafkaJSDeleteGroupsError,
  KafkaJSNonRetriableError,
  type KafkaJSProtocolError,
  toKafkaJSError,
  translated,
} from './errors.js';

export interface MemberDescription {
  clientHost: string;
  clientId: string;
  memberId: string;
  /** Empty: the core decodes assignments instead of handing out their bytes. */
  memberAssignment: Buffer;
  memberMetadata: Buffer;
}

export interface GroupDescription {
  groupId: string;
  members: MemberDescription[];
  protocol: string;
  protocolType: string;
  state: string;
}

export async function describeGroups(client: Client, groupIds: string[]): Promise<{ groups: GroupDescription[] }> {
  const described = await translated(() => client.groups.describeGroups(groupIds));
  return {
    groups: described.map((g) => ({
      groupId: g.groupId,
      members: (g.members ?? []).map((m) => ({
        clientHost: m.clientHost,
        clientId: m.clientId,
        memberId: m.memberId,
        memberAssignment: Buffer.alloc(0),
        memberMetadata: Buffer.alloc(0),
      })),
      protocol: g.assignor,
      protocolType: g.protocolType,
      state: g.state,
    })),
  };
}

/** kafkajs resolves with one entry per group, and throws KafkaJSDeleteGroupsError listing the failed ones. */
export async function deleteGroups(client: Client, groupIds: string[]) {
  if (!Array.isArray(groupIds)) throw new KafkaJSNonRetriableError(`Invalid groupIds array ${groupIds}`);
  const ids = [...new Set(groupIds)];
  try {
    await client.groups.deleteGroups(ids);
  } catch (err) {
    const errors: [string, TidemarkError][] =
      err instanceof GroupErrors
        ? [...(err.errors as Map<string, TidemarkError>)]
        : isKafkaError(err) && ids.length === 1
          ? [[ids[0], err]]
          : [];
    if (errors.length === 0) throw toKafkaJSError(err);
    const failed = errors.map(([groupId, e]) => {
      const error = toKafkaJSError(e) as KafkaJSProtocolError;
      return { groupId, errorCode: error.code, error };
    });
    throw new KafkaJSDeleteGroupsError('Error in DeleteGroups', failed);
  }
  return ids.map((groupId) => ({ groupId, errorCode: 0 }));
}

/** One topic's new partition count (and optionally where the new partitions go), as kafkajs names it. */
export interface ITopicPartitionConfig {
  topic: string;
  count: number;
  assignments?: number[][];
}

/** `admin.createPartitions()`'s argument, as in kafkajs 2.2.4. */
export interface CreatePartitionsOptions {
  topicPartitions: ITopicPartitionConfig[];
  validateOnly?: boolean;
  timeout?: number;
}

/** Resolves with nothing, as kafkajs 2.2.4 does at run time (its type says boolean). */
export async function createPartitions(client: Client, options: CreatePartitionsOptions): Promise<void> {
  const { topicPartitions } = options;
  if (!Array.isArray(topicPartitions)) {
    throw new KafkaJSNonRetriableError(`Invalid topic partitions array ${topicPartitions}`);
  }
  if (topicPartitions.length === 0) throw new KafkaJSNonRetriableError('Empty topic partitions array');
  try {
    await client.admin.createPartitions(
      topicPartitions.map((t) => ({
        topic: t.topic,
        count: t.count,
        ...(t.assignments ? { assignments: t.assignments } : {}),
      })),
      {
        validateOnly: options.validateOnly === true,
        ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
      },
    );
  } catch (err) {
    throw toKafkaJSError(err instanceof TopicErrors ? ([...err.errors.values()][0] ?? err) : err);
  }
}
