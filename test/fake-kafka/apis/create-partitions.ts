/**
 * CreatePartitions (v0+): raises a topic's partition count (new partitions led by the first broker); an unknown
 * topic is UNKNOWN_TOPIC_OR_PARTITION, a count not above the current one INVALID_PARTITIONS, assignments that
 * do not match the partitions added INVALID_REPLICA_ASSIGNMENT. validateOnly changes nothing.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';
import { PartitionLog } from '../partition-log.js';

export function answerCreatePartitions(kafka: FakeKafka, { body }: FakeRequest): unknown {
  return {
    throttleTimeMs: 0,
    results: body.topics.map((t: any) => {
      const answer = (errorCode: number, errorMessage: string | null = null) => ({
        name: t.name,
        errorCode,
        errorMessage,
      });
      const topic = kafka.topics.get(t.name);
      if (topic === undefined)
        return answer(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `The topic '${t.name}' does not exist.`);
      const current = topic.partitions.length;
      if (t.count <= current) {
        return answer(
          ErrorCode.INVALID_PARTITIONS,
          `Topic currently has ${current} partitions, ${t.count} is not an increase.`,
        );
      }
      if (t.assignments !== null && t.assignments.length !== t.count - current) {
        return answer(ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'Assignments do not match the partitions added.');
      }
      if (!body.validateOnly) {
        for (let p = current; p < t.count; p++) topic.partitions.push(new PartitionLog(kafka.nodes[0]));
      }
      return answer(0);
    }),
  };
}
