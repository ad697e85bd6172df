/**
 * Fetch requests as a consumer sends them, by topic name up to v12 and by topic id from v13, with the session
 * fields of KIP-227; shared by the fetch checks.
 */
import { Fetch } from '../../../protocol/apis/fetch.js';
import type { Connection } from '../../network/connection.js';
import type { Probe } from '../probe.js';

export type FetchAnswer = Awaited<ReturnType<typeof sendFetch>>;

export interface FetchPartitionRequest {
  partition: number;
  fetchOffset: bigint;
  lastFetchedEpoch?: number;
}

export interface FetchOptions {
  sessionId?: number;
  sessionEpoch?: number;
  isolationLevel?: number;
  forgotten?: number[];
  maxWaitMs?: number;
  version?: number;
}

export async function topicIdOf(probe: Probe, topic: string): Promise<string> {
  const md = await probe.suite.client.metadata({ topics: [topic] });
  const id = md.topics.get(topic)?.topicId;
  if (id === undefined) probe.fail(`Metadata gives no topic id for ${topic}`);
  return id;
}

export async function sendFetch(
  probe: Probe,
  connection: Connection,
  topic: string,
  partitions: readonly FetchPartitionRequest[],
  options: FetchOptions = {},
) {
  const version = options.version ?? connection.versionFor(Fetch);
  const topicId = version >= 13 ? await topicIdOf(probe, topic) : '00000000-0000-0000-0000-000000000000';
  const forgotten = options.forgotten ?? [];
  return probe.send(
    connection,
    Fetch,
    {
      replicaId: -1,
      maxWaitMs: options.maxWaitMs ?? 0,
      minBytes: 0,
      maxBytes: 1 << 20,
      isolationLevel: options.isolationLevel ?? 0,
      sessionId: options.sessionId ?? 0,
      sessionEpoch: options.sessionEpoch ?? -1,
      topics:
        partitions.length === 0
          ? []
          : [
              {
                topic,
                topicId,
                partitions: partitions.map((p) => ({
                  partition: p.partition,
                  fetchOffset: p.fetchOffset,
                  lastFetchedEpoch: p.lastFetchedEpoch ?? -1,
                  partitionMaxBytes: 1 << 20,
                })),
              },
            ],
      forgottenTopicsData: forgotten.length === 0 ? [] : [{ topic, topicId, partitions: forgotten }],
      rackId: '',
    },
    { version },
  );
}

/** The partitions an answer carries, by index. */
export function partitionsOf(answer: FetchAnswer): Map<number, FetchAnswer['responses'][number]['partitions'][number]> {
  const out = new Map<number, FetchAnswer['responses'][number]['partitions'][number]>();
  for (const t of answer.responses) for (const p of t.partitions) out.set(p.partitionIndex, p);
  return out;
}
