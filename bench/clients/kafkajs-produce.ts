/**
 * Child process of the produce benchmark: kafkajs 2.2.4's idempotent producer (acks -1), `send()` calls of
 * many messages with a few outstanding (bench/produce-settings.ts says why). Uncompressed only: kafkajs has
 * no built-in lz4 codec. The clock starts at the first send, after connect().
 */
import kafkajs from 'kafkajs';
import { CALL_BATCHING, PRODUCE_WORKLOAD, payloadPool } from '../produce-settings.js';
import { ProduceClock, produceChildArgs, sendInCalls } from './produce-child.js';

const { Kafka, logLevel } = kafkajs;
const { bootstrap, topic, records, compression } = produceChildArgs();
if (compression !== 'none') throw new Error(`kafkajs 2.2.4 has no built-in ${compression} codec`);
const values = payloadPool();
const kafka = new Kafka({ clientId: 'bench-kafkajs-produce', brokers: [bootstrap], logLevel: logLevel.NOTHING });
const producer = kafka.producer({ idempotent: true });
await producer.connect();
const clock = new ProduceClock();
clock.start();
const acknowledged = await sendInCalls(
  records,
  CALL_BATCHING.messagesPerCall,
  CALL_BATCHING.callsOutstanding,
  async (first, count) => {
    const messages = Array.from({ length: count }, (_, i) => ({ value: values[(first + i) & 4095] }));
    await producer.send({ topic, acks: -1, messages });
  },
);
clock.stop();
await producer.disconnect();
clock.report(acknowledged, PRODUCE_WORKLOAD.valueBytes, { client: 'kafkajs 2.2.4' });
