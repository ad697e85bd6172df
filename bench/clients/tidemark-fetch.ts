/**
 * Child process of the benchmark: reads the whole topic from offset 0 with tidemark's Consumer (manual
 * assignment, pipelined fetches in incremental fetch sessions, CRC checks on) and prints one JSON line with
 * what it measured. Timing starts at the first fetch request, as before, so start-up is not counted. A fourth
 * argument `reuse` turns on the consumer option reuseFetchBuffers (the `tidemark-reuse` client).
 */
import { Client } from '../../src/client.js';
import { Consumer } from '../../src/consumer/consumer.js';

const [bootstrap, topicName, expectedText, mode] = process.argv.slice(2);
const expected = Number(expectedText);

const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-bench' });
const meta = await client.metadata({ topics: [topicName] });
const topic = meta.topics.get(topicName);
if (topic === undefined) throw new Error(`no topic ${topicName}`);

const consumer = new Consumer(client, { autoOffsetReset: 'earliest', reuseFetchBuffers: mode === 'reuse' });
let fetchVersion = -1;
let cpu0 = process.cpuUsage();
let t0 = process.hrtime.bigint();
consumer.once('fetch', (e) => {
  fetchVersion = e.version;
});
consumer.assign(topic.partitions.map((p) => ({ topic: topicName, partition: p.partition })));
// The clock starts when the first fetch goes out (after the start-up lookups), as the direct Fetch loop's did.
await consumer.position({ topic: topicName, partition: topic.partitions[0].partition });
cpu0 = process.cpuUsage();
// Minor page faults in the window: fresh memory the kernel mapped (bench/results/node24.md: Node 24's extra CPU).
const faults0 = process.resourceUsage().minorPageFault;
t0 = process.hrtime.bigint();

let records = 0;
let bytes = 0;
let checksum = 0;
for await (const batch of consumer) {
  for (const r of batch.records) {
    const v = r.value;
    if (v !== null) {
      bytes += v.length;
      checksum = (checksum + v.readUInt32BE(0)) >>> 0;
    }
    const k = r.key;
    if (k !== null) bytes += k.length;
  }
  records += batch.records.length;
  if (records >= expected) {
    batch.ack();
    break;
  }
}
const t1 = process.hrtime.bigint();
const seconds = Number(t1 - t0) / 1e9;
const cpu = process.cpuUsage(cpu0);
const windowFaults = process.resourceUsage().minorPageFault - faults0;
await consumer.close();
await client.close();
console.log(
  JSON.stringify({
    records,
    bytes,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    systemCpuSeconds: cpu.system / 1e6,
    windowFaults,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    checksum,
    node: process.version,
    fetchVersion,
    // The measured window on the monotonic clock (µs), which `node --cpu-prof` samples share (bench/profile.ts).
    windowUs: [Number(t0 / 1000n), Number(t1 / 1000n)],
  }),
);
