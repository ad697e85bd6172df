import { encodeRecordBatch } from '../codecs/records/index.js';
import { Produce } from '../protocol/index.js';
import { throwIfError } from '../protocol/kafka-error.js';
import type { Client } from '../src/client.js';

export interface Workload {
  topic: string;
  partitions: number;
  records: number;
  keyBytes: number;
  valueBytes: number;
}

/** Records per produced batch: about the Java producer's default 16 KiB batch for 100-byte values. */
const RECORDS_PER_BATCH = 128;
/** Produce requests in flight per partition leader. */
const IN_FLIGHT = 8;

/**
 * Loads the workload's records, spread evenly over the partitions, with
 * deterministic contents (record i has key i and a value derived from i) so
 * every client reads the same bytes and tidemark can verify a checksum.
 */
export async function loadRecords(client: Client, w: Workload, progress: (done: number) => void): Promise<void> {
  const meta = await client.metadata({ topics: [w.topic] });
  const topic = meta.topics.get(w.topic);
  if (topic === undefined) throw new Error(`topic ${w.topic} not found after creation`);
  const perPartition = Math.ceil(w.records / w.partitions);
  let done = 0;
  await Promise.all(
    topic.partitions.map(async (p) => {
      const conn = await client.cluster.leaderFor(w.topic, p.partition);
      const version = conn.versionFor(Produce);
      const first = p.partition * perPartition;
      const last = Math.min(first + perPartition, w.records);
      const inflight = new Set<Promise<void>>();
      for (let start = first; start < last; start += RECORDS_PER_BATCH) {
        const batch = [];
        for (let i = start; i < Math.min(start + RECORDS_PER_BATCH, last); i++) {
          batch.push({ key: benchKey(i, w.keyBytes), value: benchValue(i, w.valueBytes) });
        }
        const records = encodeRecordBatch(batch);
        const topicRef = version >= 13 ? { topicId: topic.topicId } : { name: w.topic };
        const sent = conn
          .request(Produce, {
            acks: 1,
            timeoutMs: 30_000,
            topicData: [{ ...topicRef, partitionData: [{ index: p.partition, records }] }],
          })
          .then((res) => {
            for (const t of res.responses) for (const pr of t.partitionResponses) throwIfError(pr.errorCode);
            done += batch.length;
            progress(done);
          });
        inflight.add(sent);
        sent.finally(() => inflight.delete(sent));
        if (inflight.size >= IN_FLIGHT) await Promise.race(inflight);
      }
      await Promise.all(inflight);
    }),
  );
}

export function benchKey(i: number, size: number): Buffer {
  const b = Buffer.alloc(size);
  b.writeUInt32BE(i >>> 0, Math.max(0, size - 4));
  return b;
}

export function benchValue(i: number, size: number): Buffer {
  const b = Buffer.alloc(size, 0x61 + (i % 26));
  if (size >= 4) b.writeUInt32BE(i >>> 0, 0);
  return b;
}
