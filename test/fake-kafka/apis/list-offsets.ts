/**
 * ListOffsets (v0+): the earliest (-2) answers the log start; any other timestamp the log end (no time index).
 * A broker that does not lead the partition answers NOT_LEADER_OR_FOLLOWER; v0 answers in the old-style list.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerListOffsets(kafka: FakeKafka, { body, node, version }: FakeRequest) {
  return {
    topics: body.topics.map((t: any) => ({
      name: t.name,
      partitions: t.partitions.map((q: any) => {
        const p = kafka.partition(t.name, q.partitionIndex);
        const partitionIndex = q.partitionIndex;
        if (p.leader !== node) return { partitionIndex, errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER };
        const offset = q.timestamp === -2n ? p.logStart : p.logEnd;
        if (version === 0) return { partitionIndex, errorCode: 0, oldStyleOffsets: [offset] };
        return {
          partitionIndex,
          errorCode: 0,
          timestamp: -1n,
          offset,
          ...(version >= 4 ? { leaderEpoch: p.leaderEpoch } : {}),
        };
      }),
    })),
  };
}
