/** OffsetForLeaderEpoch: the end of the asked epoch's part of the log (the next epoch's start, or the log end). */
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerOffsetForLeaderEpoch(kafka: FakeKafka, { body }: FakeRequest) {
  return {
    topics: body.topics.map((t: any) => ({
      topic: t.topic,
      partitions: t.partitions.map((q: any) => {
        const p = kafka.partition(t.topic, q.partition);
        const known = p.epochStarts.filter((e) => e.epoch <= q.leaderEpoch);
        if (known.length === 0 || q.leaderEpoch > p.leaderEpoch) {
          return { partition: q.partition, errorCode: 0, leaderEpoch: -1, endOffset: -1n };
        }
        const epoch = known[known.length - 1].epoch;
        const after = p.epochStarts.find((e) => e.epoch > epoch);
        return { partition: q.partition, errorCode: 0, leaderEpoch: epoch, endOffset: after?.start ?? p.logEnd };
      }),
    })),
  };
}
