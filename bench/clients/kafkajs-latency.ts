/**
 * Child process of the latency benchmark: kafkajs 2.2.4 produces at a fixed rate and consumes the same topic
 * in one process. Producer: idempotent, acks -1; kafkajs has no linger, each `send()` is one request and its
 * idempotent producer runs one request per broker at a time, so one call is in flight and the records that
 * come due meanwhile go in the next (as an application would batch them), up to 10,000 per call. Consumer: a fresh group,
 * `fromBeginning`, `eachBatch`; the producer starts once the group is joined.
 */
import kafkajs from 'kafkajs';
import { CALL_BATCHING } from '../produce-settings.js';
import { freshGroup } from './child.js';
import { LatencyRun, latencyChildArgs } from './latency-child.js';

const { Kafka, logLevel } = kafkajs;
const args = latencyChildArgs();
const run = new LatencyRun(args);
const kafka = new Kafka({ clientId: 'bench-kafkajs-latency', brokers: [args.bootstrap], logLevel: logLevel.NOTHING });

const consumer = kafka.consumer({ groupId: freshGroup('kafkajs-latency') });
const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
await consumer.connect();
await consumer.subscribe({ topics: [args.topic], fromBeginning: true });
await consumer.run({
  autoCommit: false,
  eachBatch: async ({ batch }) => {
    for (const m of batch.messages) run.received(m.value);
  },
});
await joined;

const producer = kafka.producer({ idempotent: true });
await producer.connect();
const pending: Buffer[] = [];
let inFlight: Promise<void> | undefined;
let failed: unknown;
const sendPending = () => {
  if (inFlight !== undefined || pending.length === 0) return;
  // At most one request's worth (kafkajs sends one batch per partition, each under the broker's 1 MiB limit).
  const messages = pending.splice(0, CALL_BATCHING.messagesPerCall).map((value) => ({ value }));
  inFlight = producer
    .send({ topic: args.topic, acks: -1, messages })
    .then(
      () => {},
      (err: unknown) => {
        failed ??= err;
      },
    )
    .finally(() => {
      inFlight = undefined;
      sendPending();
    });
};
await run.pace((values) => {
  pending.push(...values);
  sendPending();
});
while (inFlight !== undefined) await inFlight;
await run.drained(30_000);
await producer.disconnect();
await consumer.disconnect();
if (failed !== undefined) throw failed;
run.finish({ client: 'kafkajs 2.2.4' });
