/**
 * Metadata (v4+): the brokers, and the topics asked for (by name, or by id from v12; null for all) with their
 * partitions' leaders and epochs; a topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION (never created).
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

const NO_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

export function answerMetadata(kafka: FakeKafka, { body }: FakeRequest): unknown {
  const asked: { name: string | null; topicId?: string }[] =
    body.topics ?? [...kafka.topics.keys()].map((name) => ({ name }));
  return {
    throttleTimeMs: 0,
    brokers: kafka.nodes.map((nodeId) => ({ nodeId, host: `fake-${nodeId}`, port: 9092, rack: null })),
    clusterId: 'fake',
    controllerId: kafka.nodes[0],
    topics: asked.map(({ name, topicId }) => {
      const named = name ?? (topicId !== undefined ? (kafka.topicNamed(topicId) ?? null) : null);
      const topic = named === null ? undefined : kafka.topics.get(named);
      if (topic === undefined) {
        return {
          errorCode: name === null ? ErrorCode.UNKNOWN_TOPIC_ID : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
          name,
          topicId: topicId ?? NO_ID,
          isInternal: false,
          partitions: [],
          topicAuthorizedOperations: -2147483648,
        };
      }
      return {
        errorCode: 0,
        name: named,
        topicId: topic.topicId,
        isInternal: false,
        partitions: topic.partitions.map((p, partitionIndex) => ({
          errorCode: 0,
          partitionIndex,
          leaderId: p.leader,
          leaderEpoch: p.leaderEpoch,
          replicaNodes: kafka.nodes,
          isrNodes: kafka.nodes,
          offlineReplicas: [],
        })),
        topicAuthorizedOperations: -2147483648,
      };
    }),
    clusterAuthorizedOperations: -2147483648,
  };
}
