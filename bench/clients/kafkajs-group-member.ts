/**
 * Group member of the group workloads (bench/clients/group.ts) for kafkajs 2.x: `eachBatch` in the group
 * the parent names, `fromBeginning`, no autocommit, default fetch sizes (eager round-robin assignor);
 * joined at its first GROUP_JOIN event (JoinGroup and SyncGroup done), like the other clients.
 */
import kafkajs from 'kafkajs';
import { finish, GroupMember, memberArgs, readUntilStopped, timelineOn } from './group-member.js';

const { Kafka, logLevel } = kafkajs;
const { bootstrap, topic, group } = memberArgs();
const member = new GroupMember(`node ${process.version}`);
const kafka = new Kafka({ clientId: 'bench-kafkajs-group', brokers: [bootstrap], logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId: group });
void member.stopped.then(() => finish(member, () => consumer.disconnect()));
consumer.on(consumer.events.GROUP_JOIN, (e) => {
  member.joined();
  const assigned = Object.values(e.payload.memberAssignment).reduce((n, ps) => n + ps.length, 0);
  member.mark('group join', { partitions: assigned });
});
if (timelineOn) {
  const GROUP_APIS = new Set(['GroupCoordinator', 'JoinGroup', 'SyncGroup', 'LeaveGroup']);
  consumer.on(consumer.events.REBALANCING, () => member.mark('rebalancing'));
  consumer.on(consumer.events.REQUEST, (e) => {
    if (GROUP_APIS.has(e.payload.apiName)) member.mark(`${e.payload.apiName} done`, { ms: e.payload.duration });
  });
}
await readUntilStopped(member, async () => {
  member.mark('subscribe');
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
