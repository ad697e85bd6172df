/**
 * ConsumerGroupHeartbeat (KIP-848): joins (epoch 0), leaves (epoch -1) or heartbeats a member; any change of
 * membership or subscription bumps the group epoch, and every member is answered with its current assignment.
 */
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

export function answerConsumerGroupHeartbeat(kafka: FakeKafka, { body }: FakeRequest) {
  const group = kafka.group(body.groupId);
  const memberId: string = body.memberId;
  const known = group.members.get(memberId);
  const answer = { throttleTimeMs: 0, errorMessage: null, heartbeatIntervalMs: 50 };
  if (body.memberEpoch === -1 || body.memberEpoch === -2) {
    group.members.delete(memberId);
    group.groupEpoch++;
    return { ...answer, errorCode: 0, memberId, memberEpoch: body.memberEpoch, assignment: null };
  }
  if (body.memberEpoch > 0 && known === undefined) {
    return { ...answer, errorCode: ErrorCode.UNKNOWN_MEMBER_ID, memberId, memberEpoch: -1, assignment: null };
  }
  const topics: string[] = body.subscribedTopicNames ?? known?.topics ?? [];
  if (known === undefined || topics.join() !== known.topics.join()) {
    group.groupEpoch++;
    group.members.set(memberId, { memberEpoch: group.groupEpoch, topics });
  }
  const member = group.members.get(memberId)!;
  member.memberEpoch = group.groupEpoch;
  const owned = group.assignment((topic) => kafka.topics.get(topic)?.partitions.length ?? 0).get(memberId)!;
  return {
    ...answer,
    errorCode: 0,
    memberId,
    memberEpoch: member.memberEpoch,
    assignment: {
      topicPartitions: [...owned].map(([topic, partitions]) => ({
        topicId: kafka.topics.get(topic)!.topicId,
        partitions,
      })),
    },
  };
}
