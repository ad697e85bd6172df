/**
 * DescribeConfigs (v1+): a topic's configs (topic-configs.ts; UNKNOWN_TOPIC_OR_PARTITION for a topic that does
 * not exist) or a broker's (a few read-only ones; a broker that is not in the cluster is INVALID_REQUEST), only
 * the keys asked for when some are named. Other resource types are INVALID_REQUEST.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';
import { DEFAULT_CONFIG, topicConfigEntries } from '../topic-configs.js';

const TOPIC = 2;
const BROKER = 4;

export function answerDescribeConfigs(kafka: FakeKafka, { body }: FakeRequest): unknown {
  return {
    throttleTimeMs: 0,
    results: body.resources.map((r: any) => {
      const answer = (errorCode: number, errorMessage: string | null, configs: any[] = []) => ({
        errorCode,
        errorMessage,
        resourceType: r.resourceType,
        resourceName: r.resourceName,
        configs: configs
          .filter((c) => r.configurationKeys === null || r.configurationKeys.includes(c.name))
          .map((c) => ({ readOnly: false, isDefault: false, synonyms: [], configType: 0, documentation: null, ...c })),
      });
      if (r.resourceType === TOPIC) {
        const topic = kafka.topics.get(r.resourceName);
        if (topic === undefined) {
          return answer(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic '${r.resourceName}' does not exist.`);
        }
        return answer(0, null, topicConfigEntries(topic.configs));
      }
      if (r.resourceType === BROKER && kafka.nodes.includes(Number(r.resourceName))) {
        const brokerConfig = (name: string, value: string) => ({
          name,
          value,
          readOnly: true,
          configSource: DEFAULT_CONFIG,
          isSensitive: false,
        });
        return answer(0, null, [brokerConfig('broker.id', r.resourceName), brokerConfig('num.partitions', '1')]);
      }
      return answer(ErrorCode.INVALID_REQUEST, `no resource ${r.resourceType}/${r.resourceName} here`);
    }),
  };
}
