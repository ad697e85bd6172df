/**
 * Child process of the produce benchmark: tidemark's producer as bench/clients/tidemark-produce.ts sets it up,
 * but sending through `sendBatch()`, one promise per call: calls of CALL_BATCHING.messagesPerCall records, a
 * few outstanding, the call shape kafkajs and @platformatic/kafka are run with. The clock starts at the first
 * call and stops when every call has resolved.
 */
import { CALL_BATCHING, PRODUCE_WORKLOAD } from '../produce-settings.js';
import { ProduceClock, sendInCalls } from './produce-child.js';
import { tidemarkProducer } from './tidemark-produce-setup.js';

const { client, producer, topic, records, values } = await tidemarkProducer('tidemark-bench-produce-batch');
const clock = new ProduceClock();
clock.start();
const acknowledged = await sendInCalls(
  records,
  CALL_BATCHING.messagesPerCall,
  CALL_BATCHING.callsOutstanding,
  async (first, count) => {
    const batch = new Array(count);
    for (let i = 0; i < count; i++) batch[i] = { topic, value: values[(first + i) & 4095] };
    await producer.sendBatch(batch);
  },
);
clock.stop();
await producer.close();
await client.close();
clock.report(acknowledged, PRODUCE_WORKLOAD.valueBytes, { client: 'tidemark' });
