/**
 * Child process of the benchmark: reads the whole topic from offset 0 with
 * tidemark's wire codec and record decoder, CRC checks on, and prints one
 * JSON line with what it measured. Until the consumer (fetch loop issue)
 * exists this drives Fetch requests directly: one request for all
 * partitions of a leader at a time, no pipelining.
 */
import { decodeRecords } from '../../codecs/records/index.js';
import { Fetch } from '../../protocol/index.js';
import { throwIfError } from '../../protocol/kafka-error.js';
import { Client } from '../../src/client.js';

const [bootstrap, topicName, expectedText] = process.argv.slice(2);
const expected = Number(expectedText);

const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-bench' });
const meta = await client.metadata({ topics: [topicName] });
const topic = meta.topics.get(topicName);
if (topic === undefined) throw new Error(`no topic ${topicName}`);
const conn = await client.cluster.leaderFor(topicName, 0);
const version = conn.versionFor(Fetch);
const offsets = new Map(topic.partitions.map((p) => [p.partition, 0n]));

const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
let records = 0;
let bytes = 0;
let checksum = 0;
while (records < expected) {
  const res = await conn.request(Fetch, {
    maxWaitMs: 500,
    minBytes: 1,
    maxBytes: 50 * 1024 * 1024,
    topics: [
      {
        ...(version >= 13 ? { topicId: topic.topicId } : { topic: topicName }),
        partitions: [...offsets].map(([partition, fetchOffset]) => ({
          partition,
          fetchOffset,
          partitionMaxBytes: 1024 * 1024,
        })),
      },
    ],
  });
  throwIfError(res.errorCode);
  for (const t of res.responses) {
    for (const p of t.partitions) {
      throwIfError(p.errorCode);
      if (p.records === null || p.records.length === 0) continue;
      const decoded = decodeRecords(p.records, { partition: p.partitionIndex });
      for (const batch of decoded.batches) {
        for (const r of batch.records) {
          const v = r.value;
          if (v !== null) {
            bytes += v.length;
            checksum = (checksum + v.readUInt32BE(0)) >>> 0;
          }
          if (r.key !== null) bytes += r.key.length;
          records++;
        }
        offsets.set(p.partitionIndex, batch.lastOffset + 1n);
      }
    }
  }
}
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(cpu0);
await client.close();
console.log(
  JSON.stringify({
    records,
    bytes,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    checksum,
    node: process.version,
    fetchVersion: version,
  }),
);
