/**
 * Child process of the produce benchmark: tidemark's producer, acks all and idempotent, one `send()` per
 * record, fire and forget, paced by `backpressure` (bench/produce-settings.ts has the batching). The clock
 * starts at the first send, after the topic's metadata is known, and stops when `flush()` resolves.
 */
import { PRODUCE_WORKLOAD } from '../produce-settings.js';
import { ProduceClock } from './produce-child.js';
import { tidemarkProducer } from './tidemark-produce-setup.js';

const { client, producer, topic, records, values } = await tidemarkProducer('tidemark-bench-produce');
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
