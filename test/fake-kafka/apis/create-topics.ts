/**
 * CreateTopics (v2+): creates each topic (leaders on the first broker, replicas on every broker) unless its name
 * is taken (TOPIC_ALREADY_EXISTS) or invalid (INVALID_TOPIC_EXCEPTION), its partition count or replication
 * factor cannot be (INVALID_PARTITIONS, INVALID_REPLICATION_FACTOR), or a config is not one the fake knows
 * (INVALID_CONFIG); -1 takes the broker default (1 partition, every broker). validateOnly creates nothing.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';
import { TOPIC_CONFIG_DEFAULTS, topicConfigEntries } from '../topic-configs.js';

export function answerCreateTopics(kafka: FakeKafka, { body }: FakeRequest): unknown {
  return {
    throttleTimeMs: 0,
    topics: body.topics.map((t: any) => {
      const partitions: number = t.assignments.length > 0 ? t.assignments.length : t.numPartitions;
      const replication: number = t.assignments.length > 0 ? t.assignments[0].brokerIds.length : t.replicationFactor;
      const count = partitions === -1 ? 1 : partitions;
      const factor = replication === -1 ? kafka.nodes.length : replication;
      const refused = (errorCode: number, errorMessage: string) => ({
        name: t.name,
        topicId: 'AAAAAAAAAAAAAAAAAAAAAA',
        errorCode,
        errorMessage,
        numPartitions: -1,
        replicationFactor: -1,
        configs: null,
      });
      if (kafka.topics.has(t.name)) return refused(ErrorCode.TOPIC_ALREADY_EXISTS, `Topic '${t.name}' already exists.`);
      if (!/^[a-zA-Z0-9._-]{1,249}$/.test(t.name) || t.name === '.' || t.name === '..') {
        return refused(ErrorCode.INVALID_TOPIC_EXCEPTION, `Topic name "${t.name}" is illegal`);
      }
      if (count < 1) return refused(ErrorCode.INVALID_PARTITIONS, 'Number of partitions must be larger than 0.');
      if (factor < 1 || factor > kafka.nodes.length) {
        return refused(ErrorCode.INVALID_REPLICATION_FACTOR, `Replication factor ${factor} is not valid.`);
      }
      const unknown = t.configs.find((c: { name: string }) => !(c.name in TOPIC_CONFIG_DEFAULTS));
      if (unknown !== undefined) return refused(ErrorCode.INVALID_CONFIG, `Unknown topic config name: ${unknown.name}`);
      const configs = new Map<string, string>(t.configs.map((c: { name: string; value: string }) => [c.name, c.value]));
      if (!body.validateOnly) kafka.createTopic(t.name, count, undefined, configs);
      return {
        name: t.name,
        topicId: kafka.topics.get(t.name)?.topicId ?? 'AAAAAAAAAAAAAAAAAAAAAA',
        errorCode: 0,
        errorMessage: null,
        numPartitions: count,
        replicationFactor: factor,
        configs: topicConfigEntries(configs).map((c) => ({ ...c, readOnly: false })),
      };
    }),
  };
}
