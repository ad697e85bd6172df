import type { TidemarkError } from '../../codecs/errors.js';
import {
  ConsumerGroupDescribe,
  type ConsumerGroupDescribeResponse,
} from '../../protocol/apis/consumer-group-describe.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import type { Deadline } from '../cluster/deadline.js';
import type { TopicPartition } from '../cluster/partition-errors.js';
import type { GroupAnswers } from '../coordinator/per-coordinator.js';
import type { Connection } from '../network/connection.js';
import { authorizedOperationsOf, type GroupDescription } from './group-description.js';

/** One describe call's deadline and what it asks of each coordinator. */
export interface DescribeAsk {
  deadline: Deadline;
  requestTimeoutMs: number;
  includeAuthorizedOperations: boolean;
}

/**
 * KIP-848 consumer groups, which DescribeGroups does not describe: ConsumerGroupDescribe gives their members
 * (client id, host, epoch), each member's current and target assignment, the server-side assignor and the
 * group and assignment epochs. Sent to the group's coordinator.
 */
export async function describeConsumerGroupsAt(
  connection: Connection,
  nodeId: number,
  groupIds: string[],
  ask: DescribeAsk,
): Promise<GroupAnswers<GroupDescription>> {
  const version = connection.versionFor(ConsumerGroupDescribe);
  const response = await connection.request(
    ConsumerGroupDescribe,
    { groupIds, includeAuthorizedOperations: ask.includeAuthorizedOperations },
    { ...ask.deadline.requestOptions(ask.requestTimeoutMs), version },
  );
  const answers: GroupAnswers<GroupDescription> = new Map();
  for (const g of response.groups) {
    if (g.errorCode !== 0) {
      const context = { api: 'ConsumerGroupDescribe', version, groupId: g.groupId };
      answers.set(g.groupId, kafkaError(g.errorCode, { message: g.errorMessage, context }) as TidemarkError);
    } else answers.set(g.groupId, fromConsumerGroup(g, nodeId, ask));
  }
  return answers;
}

type DescribedConsumerGroup = ConsumerGroupDescribeResponse['groups'][number];
type Assignment = DescribedConsumerGroup['members'][number]['assignment'];

function fromConsumerGroup(g: DescribedConsumerGroup, nodeId: number, ask: DescribeAsk): GroupDescription {
  return {
    groupId: g.groupId,
    state: g.groupState,
    type: 'consumer',
    protocolType: 'consumer',
    assignor: g.assignorName,
    members: g.members.map((m) => ({
      memberId: m.memberId,
      groupInstanceId: m.instanceId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      assignment: partitionsOf(m.assignment),
      subscribedTopics: [...m.subscribedTopicNames].sort(),
      memberEpoch: m.memberEpoch,
      targetAssignment: partitionsOf(m.targetAssignment),
      rackId: m.rackId,
    })),
    coordinator: nodeId,
    groupEpoch: g.groupEpoch,
    assignmentEpoch: g.assignmentEpoch,
    ...authorizedOperationsOf(g.authorizedOperations, ask),
  };
}

function partitionsOf(a: Assignment): TopicPartition[] {
  return a.topicPartitions
    .flatMap((t) => t.partitions.map((partition) => ({ topic: t.topicName, partition })))
    .sort((x, y) => x.topic.localeCompare(y.topic) || x.partition - y.partition);
}
