/**
 * Produce: appends each partition's batch to its log under the idempotence rules (see partition-log.ts), records
 * what came (ProduceCall) for tests to assert on, and applies the partition faults a test injected: an error code
 * instead of the append, or an answer lost after (or without) the append.
 */
import { decodeRecords } from '../../../codecs/records/index.js';
import { ConnectionError, RequestTimeoutError } from '../../../src/network/errors.js';
import type { FakeKafka } from '../cluster.js';
import type { FakeRequest } from '../control.js';

/** What a test can make the next Produce attempts for a partition do. */
export type ProduceFault =
  | { kind: 'error'; code: number }
  /** Appends (or not, with `append: false`) and then fails the request as if the answer was lost. */
  | { kind: 'lose-answer'; append: boolean; as?: 'timeout' | 'disconnect' };

/** One Produce request as the fake saw it, per partition: the batch's producer fields and what it answered. */
export interface ProduceCall {
  version: number;
  acks: number;
  partitions: {
    topic: string;
    partition: number;
    producerId: bigint;
    epoch: number;
    baseSequence: number;
    count: number;
    errorCode?: number;
  }[];
}

export function answerProduce(kafka: FakeKafka, { version, body }: FakeRequest) {
  const call: ProduceCall = { version, acks: body.acks, partitions: [] };
  kafka.produceCalls.push(call);
  let lost: ProduceFault | undefined;
  const responses = [];
  for (const t of body.topicData) {
    const topic: string = version >= 13 ? kafka.topicNameOf(t.topicId) : t.name;
    const partitionResponses = [];
    for (const pd of t.partitionData) {
      const [batch] = decodeRecords(Buffer.from(pd.records)).batches;
      const seen = {
        topic,
        partition: pd.index,
        producerId: batch.producerId,
        epoch: batch.producerEpoch,
        baseSequence: batch.baseSequence,
        count: batch.records.length,
        errorCode: 0,
      };
      call.partitions.push(seen);
      const fault = kafka.produceFaults.get(`${topic}/${pd.index}`)?.shift();
      let baseOffset = -1n;
      if (fault?.kind === 'error') seen.errorCode = fault.code;
      else if (fault === undefined || fault.append) {
        [seen.errorCode, baseOffset] = kafka.partition(topic, pd.index).appendProduced(pd.records);
      }
      if (fault?.kind === 'lose-answer') lost = fault;
      partitionResponses.push(partitionAnswer(pd.index, seen.errorCode, baseOffset));
    }
    responses.push({ name: topic, topicId: kafka.topics.get(topic)?.topicId, partitionResponses });
  }
  if (lost?.kind === 'lose-answer') {
    if (lost.as === 'disconnect') throw new ConnectionError('fake connection lost', { host: 'fake', port: 1 });
    throw new RequestTimeoutError('Produce', version, 0, 1, 'fake:1');
  }
  return { responses, throttleTimeMs: kafka.throttleTimeMs.Produce ?? 0, nodeEndpoints: [] };
}

function partitionAnswer(index: number, errorCode: number, baseOffset: bigint) {
  return {
    index,
    errorCode,
    baseOffset,
    logAppendTimeMs: -1n,
    logStartOffset: 0n,
    recordErrors: [],
    errorMessage: null,
    currentLeader: { leaderId: -1, leaderEpoch: -1 },
  };
}
