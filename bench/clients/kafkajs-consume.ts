/**
 * Child process: kafkajs 2.x reads the whole topic from offset 0 in a fresh
 * group with `eachBatch` (its fastest consuming API), default fetch sizes.
 * The clock starts at the group join (kafkajs's GROUP_JOIN event).
 */
import kafkajs from 'kafkajs';
import { childArgs, freshGroup, Tally, withDeadline } from './child.js';

const { Kafka, logLevel } = kafkajs;
const { bootstrap, topic, expected } = childArgs();
const tally = new Tally(expected);

await withDeadline(600_000, async () => {
  const kafka = new Kafka({ clientId: 'bench-kafkajs', brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: freshGroup('kafkajs') });
  consumer.on(consumer.events.GROUP_JOIN, () => tally.start());
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) tally.add(m.key, m.value);
    },
  });
  await tally.done;
  await consumer.disconnect();
});
tally.report({ client: 'kafkajs 2.2.4' });
