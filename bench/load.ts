import type { CompressionCodecName } from '../codecs/compression/codec.js';
import type { Client } from '../src/client.js';

export interface Workload {
  topic: string;
  partitions: number;
  records: number;
  keyBytes: number;
  valueBytes: number;
  /** Batch compression; none when absent. zstd needs a Node whose zlib has zstd (see bench/topic.ts). */
  compression?: CompressionCodecName;
  /** Read by a consumer group of this many processes per client; absent: one process. */
  groupMembers?: number;
}

/**
 * Loads the workload's records, spread evenly over the partitions, with
 * deterministic contents (record i has key i and a value derived from i) so
 * every client reads the same bytes and tidemark can verify a checksum.
 * tidemark's own producer writes them (acks=1, batched, with the workload's
 * compression); explicit partitions keep the spread even.
 */
export async function loadRecords(client: Client, w: Workload, progress: (done: number) => void): Promise<void> {
  const producer = client.producer({
    acks: 1,
    compression: w.compression ?? 'none',
    batchSize: 64 * 1024,
    lingerMs: 5,
  });
  const perPartition = Math.ceil(w.records / w.partitions);
  let done = 0;
  let failed: unknown;
  try {
    for (let p = 0; p < w.partitions; p++) {
      for (let i = p * perPartition; i < Math.min((p + 1) * perPartition, w.records); i++) {
        if (failed !== undefined) throw failed;
        if (producer.backpressure) await producer.waitForCapacity();
        producer
          .send({ topic: w.topic, partition: p, key: benchKey(i, w.keyBytes), value: benchValue(i, w.valueBytes) })
          .then(
            () => {
              done++;
              if (done % 10_000 === 0 || done === w.records) progress(done);
            },
            (err: unknown) => {
              failed ??= err;
            },
          );
      }
    }
  } finally {
    await producer.close();
  }
  if (failed !== undefined) throw failed;
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
