/**
 * Group member of the group workloads (bench/clients/group.ts) for kafkajs 2.x: connects, waits at the start
 * barrier, then `eachBatch` in the group the parent names, `fromBeginning`, default fetch sizes, the bench's heartbeat interval, its default
 * round-robin assignor (classic protocol, eager) and its default autocommit: each batch's last offset is
 * resolved when `eachBatch` returns and kafkajs commits the resolved offsets after every batch, so a
 * rebalance does not hand a partition over uncommitted.
 */
import kafkajs from 'kafkajs';
import { finish, GroupMember, heartbeatMs, memberArgs, readUntilStopped, timelineOn } from './group-member.js';

const { Kafka, logLevel } = kafkajs;
const { bootstrap, topic, group } = memberArgs();
const member = new GroupMember(`node ${process.version}`);
const kafka = new Kafka({ clientId: 'bench-kafkajs-group', brokers: [bootstrap], logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId: group, heartbeatInterval: heartbeatMs });
void member.stopped.then(() => finish(member, () => consumer.disconnect()));
consumer.on(consumer.events.GROUP_JOIN, (e) => {
  member.joined();
  const assigned = Object.values(e.payload.memberAssignment).reduce((n, ps) => n + ps.length, 0);
  member.mark('group join', { partitions: assigned, assignor: e.payload.groupProtocol });
});
if (timelineOn) {
  // Every request but the steady ones (as tidemark's member); of Fetch only the first two, to see reading start.
  const STEADY_APIS = new Set(['Fetch', 'Heartbeat', 'OffsetCommit']);
  let fetches = 0;
  consumer.on(consumer.events.REBALANCING, () => member.mark('rebalancing'));
  consumer.on(consumer.events.REQUEST, (e) => {
    const api = e.payload.apiName;
    if (!STEADY_APIS.has(api) || (api === 'Fetch' && fetches++ < 2))
      member.mark(`${api} done`, { ms: e.payload.duration });
  });
}
await readUntilStopped(member, async () => {
  await consumer.connect();
  await member.ready();
  member.mark('subscribe');
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) member.add(m.key, m.value);
      member.batchDone();
    },
  });
});
