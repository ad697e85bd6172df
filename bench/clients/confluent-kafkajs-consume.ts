/**
 * Child process (client id `confluent-kafkajs`): @confluentinc/kafka-javascript
 * (librdkafka binding, built from source by bench/clients/rdkafka-build.ts)
 * through the API most kafkajs users migrate to; `confluent` (confluent-consume.ts)
 * is the binding's fastest path. Reads the whole topic from
 * offset 0 in a fresh group through its KafkaJS-compatible API with
 * `eachBatch`, no autocommit, default batch size (32 records; unbounded,
 * `js.consumer.max.batch.size: -1`, was no faster in a first try and held
 * the whole topic in memory). The clock starts at the first rebalance
 * callback (the assignment, the group join done): starting it at the first
 * record would hide the records librdkafka prefetches meanwhile
 * (queued.min.messages, 100,000 per partition).
 */
import ckjs from '@confluentinc/kafka-javascript';
import { childArgs, freshGroup, Tally, withDeadline } from './child.js';

const { KafkaJS } = ckjs;
const { bootstrap, topic, expected } = childArgs();
const tally = new Tally(expected);

await withDeadline(600_000, async () => {
  const kafka = new KafkaJS.Kafka({ kafkaJS: { brokers: [bootstrap], logLevel: KafkaJS.logLevel.NOTHING } });
  const consumer = kafka.consumer({
    kafkaJS: { groupId: freshGroup('confluent-kafkajs'), fromBeginning: true, autoCommit: false },
    // Returns nothing: the library goes on with its default (incremental) assign.
    rebalance_cb: () => tally.start(),
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic] });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) tally.add(m.key, m.value);
    },
  });
  await tally.done;
  await consumer.disconnect();
});
tally.report({ client: '@confluentinc/kafka-javascript (KafkaJS API)', librdkafka: ckjs.librdkafkaVersion });
