/**
 * Child process of the latency benchmark: @confluentinc/kafka-javascript (the librdkafka binding) produces at
 * a fixed rate and consumes the same topic in one process, through its native API. Producer: `Producer`,
 * acks all, idempotent, librdkafka's default linger (5 ms), one `produce()` per record, polled on
 * librdkafka's background thread. Consumer: `KafkaConsumer`, a fresh group, earliest, `consume(1000)` with
 * the timeout on the first message only (as in the fetch bench); the producer starts once the partitions
 * are assigned.
 */
import ckjs from '@confluentinc/kafka-javascript';
import { freshGroup } from './child.js';
import { LatencyRun, latencyChildArgs } from './latency-child.js';

const args = latencyChildArgs();
const run = new LatencyRun(args);

const consumer = new ckjs.KafkaConsumer(
  {
    'metadata.broker.list': args.bootstrap,
    'client.id': 'bench-confluent-latency',
    'group.id': freshGroup('confluent-latency'),
    'enable.auto.commit': false,
    'enable.partition.eof': false,
    rebalance_cb: true,
  },
  { 'auto.offset.reset': 'earliest' },
);
const assigned = new Promise<void>((resolve) =>
  consumer.on('rebalance', (err) => {
    if (err.code === ckjs.CODES.ERRORS.ERR__ASSIGN_PARTITIONS) resolve();
  }),
);
await new Promise<void>((resolve, reject) => consumer.connect({}, (err) => (err ? reject(err) : resolve())));
consumer.setDefaultConsumeTimeout(100);
(
  consumer as unknown as { setDefaultIsTimeoutOnlyForFirstMessage(v: boolean): void }
).setDefaultIsTimeoutOnlyForFirstMessage(true);
consumer.subscribe([args.topic]);
let consumeError: unknown;
let stopped = false;
const consuming = new Promise<void>((resolve) => {
  const next = () =>
    consumer.consume(1000, (err, messages) => {
      if (err) consumeError ??= err;
      for (const m of messages ?? []) run.received(m.value);
      if (stopped || consumeError !== undefined) resolve();
      else next();
    });
  next();
});
await assigned;

const producer = new ckjs.Producer({
  'metadata.broker.list': args.bootstrap,
  'client.id': 'bench-confluent-latency',
  acks: -1,
  'enable.idempotence': true,
});
await new Promise<void>((resolve, reject) => producer.connect({}, (err) => (err ? reject(err) : resolve())));
producer.setPollInBackground(true);
await run.pace((values) => {
  for (const value of values) producer.produce(args.topic, null, value);
});
await new Promise<void>((resolve, reject) => producer.flush(30_000, (err) => (err ? reject(err) : resolve())));
await run.drained(30_000);
stopped = true;
await consuming;
await new Promise<void>((resolve) => producer.disconnect(() => resolve()));
await new Promise<void>((resolve) => consumer.disconnect(() => resolve()));
if (consumeError !== undefined) throw consumeError;
run.finish({ client: '@confluentinc/kafka-javascript', librdkafka: ckjs.librdkafkaVersion });
