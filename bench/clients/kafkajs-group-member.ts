/**
 * Group member of the group workloads (bench/clients/group.ts) for kafkajs 2.x: `eachBatch` in the group
 * the parent names, `fromBeginning`, no autocommit, default fetch sizes; joined at its GROUP_JOIN event.
 */
import kafkajs from 'kafkajs';
import { finish, GroupMember, memberArgs, readUntilStopped } from './group-member.js';

const { Kafka, logLevel } = kafkajs;
const { bootstrap, topic, group } = memberArgs();
const member = new GroupMember(`node ${process.version}`);
const kafka = new Kafka({ clientId: 'bench-kafkajs-group', brokers: [bootstrap], logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId: group });
void member.stopped.then(() => finish(member, () => consumer.disconnect()));
consumer.on(consumer.events.GROUP_JOIN, () => member.joined());
await readUntilStopped(member, async () => {
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) member.add(m.key, m.value);
      member.batchDone();
    },
  });
});
