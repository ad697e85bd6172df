/**
 * Group member of the group workloads (bench/clients/group.ts) for tidemark: connects (metadata of the topic),
 * waits at the start barrier, subscribes in the group the parent names with the consumer's defaults (classic
 * protocol, assignors range then cooperative-sticky, CRC checks on, the bench's heartbeat interval, autocommit: processed offsets committed
 * every 5 s and, awaited, on revoke, so a rebalance does not hand a partition over uncommitted), counts what
 * it is given, and stops when the parent says the group has read everything.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { Client } from '../../src/client.js';
import { Consumer } from '../../src/consumer/consumer.js';
import type { RequestContext } from '../../src/observability/channels.js';
import { finish, GroupMember, heartbeatMs, memberArgs, readUntilStopped, timelineOn } from './group-member.js';

const { bootstrap, topic, group } = memberArgs();
const member = new GroupMember(`node ${process.version}`);
const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-bench-group' });
const consumer = new Consumer(client, {
  groupId: group,
  autoOffsetReset: 'earliest',
  group: { heartbeatIntervalMs: heartbeatMs },
});
consumer.on('rebalance', (e) => {
  if (e.kind === 'assigned' || e.kind === 'unchanged') member.joined();
  member.mark(`rebalance ${e.kind}`, { generation: e.generation, partitions: e.partitions.length });
});
if (timelineOn) {
  // Every request but the steady ones; of Fetch only the first, to see how long reading takes to start.
  const STEADY_APIS = new Set(['Fetch', 'Heartbeat', 'ConsumerGroupHeartbeat']);
  let fetches = 0;
  const shown = (api: string) => !STEADY_APIS.has(api) || (api === 'Fetch' && fetches < 2);
  tracingChannel<unknown, RequestContext>('tidemark:request').subscribe({
    start: (c) => {
      if (shown(c.apiName)) member.mark(`${c.apiName} sent`);
    },
    end: () => {},
    asyncStart: () => {},
    asyncEnd: (c) => {
      if (shown(c.apiName)) member.mark(`${c.apiName} done`, { ms: Math.round(c.durationMs) });
      if (c.apiName === 'Fetch') fetches++;
    },
    error: (c) => {
      if (shown(c.apiName)) member.mark(`${c.apiName} failed`);
    },
  });
}
void member.stopped.then(() =>
  finish(member, async () => {
    await consumer.close();
    await client.close();
  }),
);
await readUntilStopped(member, async () => {
  await client.metadata({ topics: [topic] });
  await member.ready();
  member.mark('subscribe');
  await consumer.subscribe({ topics: [topic] });
  for await (const batch of consumer) {
    for (const r of batch.records) member.add(r.key, r.value);
    member.batchDone();
    batch.ack();
  }
});
