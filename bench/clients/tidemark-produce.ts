/**
 * Child process of the produce benchmark: tidemark's producer, acks all and idempotent, one `send()` per
 * record, fire and forget, paced by `backpressure` (bench/produce-settings.ts has the batching). The clock
 * starts at the first send, after the topic's metadata is known, and stops when `flush()` resolves.
 */
import { Client } from '../../src/client.js';
import { KAFKA_BATCHING, PRODUCE_WORKLOAD, payloadPool } from '../produce-settings.js';
import { ProduceClock, produceChildArgs } from './produce-child.js';

const { bootstrap, topic, records, compression } = produceChildArgs();
const values = payloadPool();
const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-bench-produce' });
await client.metadata({ topics: [topic] });
const producer = client.producer({
  acks: 'all',
  idempotent: true,
  compression,
  lingerMs: KAFKA_BATCHING.lingerMs,
  batchSize: KAFKA_BATCHING.batchBytes,
});

let acknowledged = 0;
let failed: unknown;
// Shared callbacks: no closure per record.
const onAck = () => {
  acknowledged++;
};
const onFail = (err: unknown) => {
  failed ??= err;
};
const clock = new ProduceClock();
clock.start();
for (let i = 0; i < records; i++) {
  if (producer.backpressure) await producer.waitForCapacity();
  producer.send({ topic, value: values[i & 4095] }).then(onAck, onFail);
}
await producer.flush();
// flush() resolves when every batch is answered; the last send() promises settle a microtask later.
await new Promise((resolve) => setImmediate(resolve));
clock.stop();
await producer.close();
await client.close();
if (failed !== undefined) throw failed;
clock.report(acknowledged, PRODUCE_WORKLOAD.valueBytes, { client: 'tidemark' });
