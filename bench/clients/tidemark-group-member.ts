/**
 * Group member of the group workloads (bench/clients/group.ts) for tidemark: subscribes in the group the
 * parent names (the client's default group protocol and assignor, CRC checks on, no autocommit), counts
 * what it is given, and stops when the parent says the group has read everything.
 */
import { Client } from '../../src/client.js';
import { Consumer } from '../../src/consumer/consumer.js';
import { finish, GroupMember, memberArgs, readUntilStopped } from './group-member.js';

const { bootstrap, topic, group } = memberArgs();
const member = new GroupMember(`node ${process.version}`);
const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-bench-group' });
const consumer = new Consumer(client, { groupId: group, autoOffsetReset: 'earliest', autoCommit: false });
void member.stopped.then(() =>
  finish(member, async () => {
    await consumer.close();
    await client.close();
  }),
);
await readUntilStopped(member, async () => {
  await consumer.subscribe({ topics: [topic] });
  member.joined();
  for await (const batch of consumer) {
    for (const r of batch.records) member.add(r.key, r.value);
    member.batchDone();
    batch.ack();
  }
});
