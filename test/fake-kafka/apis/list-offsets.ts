/** ListOffsets: the earliest (-2) answers the log start; any other timestamp the log end (no time index). */
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerListOffsets(kafka: FakeKafka, { body }: FakeRequest) {
  return {
    topics: body.topics.map((t: any) => ({
      name: t.name,
      partitions: t.partitions.map((q: any) => {
        const p = kafka.partition(t.name, q.partitionIndex);
        return {
          partitionIndex: q.partitionIndex,
          errorCode: 0,
          timestamp: -1n,
          offset: q.timestamp === -2n ? p.logStart : p.logEnd,
          leaderEpoch: p.leaderEpoch,
        };
      }),
    })),
  };
}
