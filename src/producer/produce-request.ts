import { Produce, type ProduceRequestInput, type ProduceResponse } from '../../protocol/apis/produce.js';
import type { ProducerBatch } from './batch.js';

/** Produce v13 names topics by id; older versions by name. */
export const FIRST_TOPIC_ID_VERSION = 13;

/** One partition's answer, as the sender needs it. */
export interface PartitionAnswer {
  errorCode: number;
  baseOffset: bigint;
  logAppendTimeMs: bigint;
  logStartOffset: bigint;
  errorMessage: string | null;
  /** Indexes of the records the broker rejected (v8+), with its reasons. */
  recordErrors: { batchIndex: number; message: string | null }[];
}

/**
 * The last Produce version of the classic transaction protocol: v12 tells a 4.x broker that the producer
 * speaks Transactions v2 (KIP-890) and lets it add partitions itself, so a classic transaction stays below.
 */
export const LAST_CLASSIC_TRANSACTIONAL_PRODUCE = 11;

/**
 * The version to send: the forced one, else the highest both sides speak, but below 13 when a topic has no id
 * in metadata (v13 can only name topics by id), and at most 11 for batches of a classic transaction (a batch of
 * a Transactions v2 one is marked `transactionV2` when its transaction admits it).
 */
export function produceVersionFor(
  negotiated: number,
  forced: number | undefined,
  batches: readonly ProducerBatch[],
  topicId: (topic: string) => string | undefined,
  transactional = false,
): number {
  if (forced !== undefined) return forced;
  const transactionV2 = batches.length > 0 && batches.every((b) => b.transactionV2);
  if (transactional && !transactionV2) {
    return Math.min(negotiated, LAST_CLASSIC_TRANSACTIONAL_PRODUCE);
  }
  if (negotiated >= FIRST_TOPIC_ID_VERSION && batches.some((b) => topicId(b.topic) === undefined)) {
    return FIRST_TOPIC_ID_VERSION - 1;
  }
  return negotiated;
}

/** One request for one broker: each batch's encoded bytes under its topic (by name and, for v13, by id). */
export function buildProduceRequest(
  batches: readonly ProducerBatch[],
  encoded: readonly Buffer[],
  acks: number,
  timeoutMs: number,
  topicId: (topic: string) => string | undefined,
  transactionalId: string | null = null,
): ProduceRequestInput {
  type PartitionData = { index: number; records: Uint8Array };
  const topics = new Map<string, { name: string; topicId: string | undefined; partitionData: PartitionData[] }>();
  for (let i = 0; i < batches.length; i++) {
    const b = batches[i];
    let t = topics.get(b.topic);
    if (t === undefined) {
      t = { name: b.topic, topicId: topicId(b.topic), partitionData: [] };
      topics.set(b.topic, t);
    }
    t.partitionData.push({ index: b.partition, records: encoded[i] });
  }
  return { transactionalId, acks, timeoutMs, topicData: [...topics.values()] };
}

/**
 * Matches the response's partitions to the request's batches (by topic name, or by id for v13). A batch the
 * broker did not mention is missing from the map; the sender treats that as a failed attempt.
 */
export function matchAnswers(
  response: ProduceResponse,
  batches: readonly ProducerBatch[],
  topicId: (topic: string) => string | undefined,
): Map<ProducerBatch, PartitionAnswer> {
  const byKey = new Map<string, PartitionAnswer>();
  for (const t of response.responses) {
    for (const p of t.partitionResponses) {
      const answer: PartitionAnswer = {
        errorCode: p.errorCode,
        baseOffset: p.baseOffset,
        logAppendTimeMs: p.logAppendTimeMs,
        logStartOffset: p.logStartOffset,
        errorMessage: p.errorMessage,
        recordErrors: p.recordErrors.map((e) => ({ batchIndex: e.batchIndex, message: e.batchIndexErrorMessage })),
      };
      // Both keys: a v13 response names topics by id and leaves the name empty, older ones the other way round.
      if (t.name) byKey.set(`n:${t.name}:${p.index}`, answer);
      if (t.topicId) byKey.set(`i:${t.topicId}:${p.index}`, answer);
    }
  }
  const answers = new Map<ProducerBatch, PartitionAnswer>();
  for (const b of batches) {
    const id = topicId(b.topic);
    const answer = byKey.get(`n:${b.topic}:${b.partition}`) ?? (id ? byKey.get(`i:${id}:${b.partition}`) : undefined);
    if (answer !== undefined) answers.set(b, answer);
  }
  return answers;
}

export { Produce };
