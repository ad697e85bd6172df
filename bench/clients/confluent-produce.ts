/**
 * Child process of the produce benchmark: @confluentinc/kafka-javascript (the librdkafka binding, built by
 * bench/clients/rdkafka-build.ts) through its native `Producer`: one `produce()` per record, a delivery report
 * for each, polled on librdkafka's own background thread (`setPollInBackground`, which its docs recommend
 * for high-throughput producers). On QUEUE_FULL the loop waits a millisecond for the queue to drain, as a
 * throughput producer does. librdkafka's settings are in bench/produce-settings.ts. The clock starts at the
 * first produce(), after connect(), and stops when every delivery report is in.
 */
import ckjs from '@confluentinc/kafka-javascript';
import { LIBRDKAFKA_PRODUCE, PRODUCE_WORKLOAD, payloadPool } from '../produce-settings.js';
import { ProduceClock, produceChildArgs } from './produce-child.js';

const { bootstrap, topic, records, compression } = produceChildArgs();
const values = payloadPool();
const QUEUE_FULL = ckjs.CODES.ERRORS.ERR__QUEUE_FULL;

const producer = new ckjs.Producer({
  'metadata.broker.list': bootstrap,
  'client.id': 'bench-confluent-produce',
  ...LIBRDKAFKA_PRODUCE,
  'compression.codec': compression,
  dr_cb: true,
});
let delivered = 0;
let failed: { message: string } | undefined;
let allDelivered: () => void = () => {};
const done = new Promise<void>((resolve) => {
  allDelivered = resolve;
});
producer.on('delivery-report', (err) => {
  if (err) failed ??= err;
  else delivered++;
  if (delivered === records || failed !== undefined) allDelivered();
});
await new Promise<void>((resolve, reject) => producer.connect({}, (err) => (err ? reject(err) : resolve())));
producer.setPollInBackground(true);

const clock = new ProduceClock();
clock.start();
for (let i = 0; i < records; ) {
  try {
    producer.produce(topic, null, values[i & 4095]);
    i++;
  } catch (e) {
    if ((e as { code?: number }).code !== QUEUE_FULL) throw e;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
await new Promise<void>((resolve, reject) => producer.flush(120_000, (err) => (err ? reject(err) : resolve())));
await done;
clock.stop();
await new Promise<void>((resolve) => producer.disconnect(() => resolve()));
if (failed !== undefined) throw new Error(`delivery failed: ${failed.message}`);
clock.report(delivered, PRODUCE_WORKLOAD.valueBytes, {
  client: '@confluentinc/kafka-javascript (Producer)',
  librdkafka: ckjs.librdkafkaVersion,
});
