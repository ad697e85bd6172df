/**
 * Child process of the produce benchmark: tidemark's producer as bench/clients/tidemark-produce.ts runs it,
 * but each record sent with `send(record, callback)` (answered through a callback, no promise per record: the
 * call shape of Java's ProducerPerformance). The clock starts at the first send and stops when `flush()`
 * resolves and the last callbacks have run.
 */
import { PRODUCE_WORKLOAD } from '../produce-settings.js';
import { ProduceClock } from './produce-child.js';
import { tidemarkProducer } from './tidemark-produce-setup.js';

const { client, producer, topic, records, values } = await tidemarkProducer('tidemark-bench-produce-callback');
let acknowledged = 0;
let failed: Error | undefined;
// One shared callback: no closure per record.
const onDelivery = (err: Error | undefined) => {
  if (err === undefined) acknowledged++;
  else failed ??= err;
};
const clock = new ProduceClock();
clock.start();
for (let i = 0; i < records; i++) {
  if (producer.backpressure) await producer.waitForCapacity();
  producer.send({ topic, value: values[i & 4095] }, onDelivery);
}
await producer.flush();
clock.stop();
await producer.close();
await client.close();
if (failed !== undefined) throw failed;
clock.report(acknowledged, PRODUCE_WORKLOAD.valueBytes, { client: 'tidemark' });
