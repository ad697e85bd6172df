/**
 * DeleteTopics (v1+; by name, or name or id from v6): removes each topic with its logs; a topic that does not
 * exist is UNKNOWN_TOPIC_OR_PARTITION (UNKNOWN_TOPIC_ID when asked by id).
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

const NO_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

export function answerDeleteTopics(kafka: FakeKafka, { body, version }: FakeRequest): unknown {
  const asked: { name: string | null; topicId: string }[] =
    version >= 6 ? body.topics : body.topicNames.map((name: string) => ({ name, topicId: NO_ID }));
  return {
    throttleTimeMs: 0,
    responses: asked.map(({ name, topicId }) => {
      const byId = name === null;
      const named = byId ? kafka.topicNamed(topicId) : name;
      const topic = named === undefined ? undefined : kafka.topics.get(named);
      if (named === undefined || topic === undefined) {
        const errorCode = byId ? ErrorCode.UNKNOWN_TOPIC_ID : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
        return { name, topicId, errorCode, errorMessage: null };
      }
      kafka.topics.delete(named);
      return { name: named, topicId: topic.topicId, errorCode: 0, errorMessage: null };
    }),
  };
}
