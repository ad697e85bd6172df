/**
 * Child process of the latency benchmark: tidemark produces at a fixed rate and consumes the same topic in
 * one process. Producer: defaults (acks all, idempotent, linger 5 ms), one `send(record, callback)` per record.
 * Consumer: every partition assigned (no group), from the earliest offset, CRC on; the producer starts once
 * every partition has its position, so the consumer is already fetching.
 */
import { Client } from '../../src/client.js';
import { Consumer } from '../../src/consumer/consumer.js';
import { LatencyRun, latencyChildArgs } from './latency-child.js';

const args = latencyChildArgs();
const run = new LatencyRun(args);
const client = new Client({ bootstrap: [args.bootstrap], clientId: 'tidemark-bench-latency' });
const meta = await client.metadata({ topics: [args.topic] });
const topic = meta.topics.get(args.topic);
if (topic === undefined) throw new Error(`no topic ${args.topic}`);
const partitions = topic.partitions.map((p) => ({ topic: args.topic, partition: p.partition }));

const consumer = new Consumer(client, { autoOffsetReset: 'earliest' });
consumer.assign(partitions);
await Promise.all(partitions.map((p) => consumer.position(p)));
const consuming = (async () => {
  for await (const batch of consumer) {
    for (const r of batch.records) run.received(r.value);
    if (run.tracker.received >= run.total) break;
  }
})();

const producer = client.producer({ acks: 'all', idempotent: true });
let failed: unknown;
// The callback form, as the Java client's probe sends (send(record, callback)): no promise per record.
const onAnswer = (err: Error | undefined) => {
  if (err !== undefined) failed ??= err;
};
await run.pace((values) => {
  for (const value of values) producer.send({ topic: args.topic, value }, onAnswer);
});
await producer.flush();
await run.drained(30_000);
await producer.close();
await consumer.close();
await consuming.catch(() => {});
await client.close();
if (failed !== undefined) throw failed;
run.finish({ client: 'tidemark' });
