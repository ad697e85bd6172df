/**
 * Child process of the produce benchmark: @platformatic/kafka's idempotent producer (Node 24; idempotence
 * makes it acks -1 with one request in flight per connection), `send()` calls of many messages with a few
 * outstanding, keyless messages partitioned round-robin. The clock starts at the first send, after the
 * topic's metadata is known.
 */
import { Producer } from '@platformatic/kafka';
import { CALL_BATCHING, PRODUCE_WORKLOAD, payloadPool } from '../produce-settings.js';
import { ProduceClock, produceChildArgs, sendInCalls } from './produce-child.js';

const { bootstrap, topic, records, compression } = produceChildArgs();
const values = payloadPool();
const producer = new Producer({
  clientId: 'bench-platformatic-produce',
  bootstrapBrokers: [bootstrap],
  idempotent: true,
  compression,
});
await producer.metadata({ topics: [topic] });
const clock = new ProduceClock();
clock.start();
const acknowledged = await sendInCalls(
  records,
  CALL_BATCHING.messagesPerCall,
  CALL_BATCHING.callsOutstanding,
  async (first, count) => {
    const messages = Array.from({ length: count }, (_, i) => ({ topic, value: values[(first + i) & 4095] }));
    await producer.send({ messages });
  },
);
clock.stop();
await producer.close();
clock.report(acknowledged, PRODUCE_WORKLOAD.valueBytes, { client: '@platformatic/kafka' });
