/** Reads a whole topic back with tidemark's own Fetch and record decoder (CRC checked), for comparisons. */
import { decodeRecords, type RecordBatch } from '../../../codecs/records/index.js';
import { Fetch } from '../../../protocol/index.js';
import { kafkaError } from '../../../protocol/kafka-error.js';
import type { Client } from '../../../src/client.js';
import type { ComparableRecord } from './record-spec.js';

export interface ReadBack {
  /** Every data record, by partition then offset. */
  records: ComparableRecord[];
  /** The batches as stored (compression, producer id, epoch, sequence), with their partition. */
  batches: (RecordBatch & { partition: number })[];
}

const b64 = (b: Buffer | null) => (b === null ? null : b.toString('base64'));

/** Fetches every partition of `topic` from offset 0 up to its high watermark. */
export async function readBack(client: Client, topic: string, timeoutMs = 30_000): Promise<ReadBack> {
  const md = await client.metadata({ topics: [topic] });
  const t = md.topics.get(topic)!;
  const records: ComparableRecord[] = [];
  const batches: ReadBack['batches'] = [];
  const deadline = Date.now() + timeoutMs;
  for (const { partition } of t.partitions) {
    let offset = 0n;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`reading ${topic}-${partition} took longer than ${timeoutMs} ms`);
      const conn = await client.cluster.leaderFor(topic, partition);
      const version = conn.versionFor(Fetch);
      const res = await conn.request(Fetch, {
        maxWaitMs: 100,
        minBytes: 1,
        maxBytes: 16 * 1024 * 1024,
        isolationLevel: 0,
        topics: [
          {
            ...(version >= 13 ? { topicId: t.topicId } : { topic }),
            partitions: [{ partition, fetchOffset: offset, partitionMaxBytes: 8 * 1024 * 1024 }],
          },
        ],
      });
      if (res.errorCode !== 0) throw kafkaError(res.errorCode, { context: { api: 'Fetch' } });
      const p = res.responses[0].partitions[0];
      if (p.errorCode !== 0) throw kafkaError(p.errorCode, { context: { api: 'Fetch', topic, partition } });
      if (p.records !== null && p.records.length > 0) {
        for (const batch of decodeRecords(p.records, { topic, partition }).batches) {
          if (batch.lastOffset < offset) continue;
          batches.push({ ...batch, partition });
          if (!batch.isControl) {
            for (const r of batch.records) {
              if (r.offset < offset) continue;
              records.push({
                partition,
                offset: r.offset,
                timestamp: r.timestamp,
                key: b64(r.key),
                value: b64(r.value),
                headers: r.headers.map((h) => [h.key, b64(h.value)]),
              });
            }
          }
          offset = batch.lastOffset + 1n;
        }
      }
      if (offset >= p.highWatermark) break;
    }
  }
  return { records, batches };
}
