/**
 * A tidemark group member in a process of its own, for the tests that kill a member (SIGKILL) or restart one.
 * Argument: JSON `{ bootstrap, topic, options }`. Prints one JSON line per rebalance ("@@ " first):
 * `{"event":"rebalance","partitions":[..],"generation":N,"memberId":"..."}`, then takes commands on stdin:
 * `leave` (leave() as close does, then exit), `leave-static` (leave with evenIfStatic), `exit` (no leave).
 */
import { createInterface } from 'node:readline';
import { Client } from '../../../src/client.js';
import { createGroupMembership, type GroupMembershipOptions } from '../../../src/consumer/group/index.js';

const { bootstrap, topic, options } = JSON.parse(process.argv[2]) as {
  bootstrap: string;
  topic: string;
  options: GroupMembershipOptions;
};
const print = (line: object) => process.stdout.write(`@@ ${JSON.stringify(line)}\n`);

const client = new Client({ bootstrap, clientId: 'member-process', requestTimeoutMs: 15_000 });
const membership = createGroupMembership(client.cluster, client.coordinators, options);
membership.on('rebalance', (e) =>
  print({
    event: 'rebalance',
    partitions: e.assignment.map((p) => p.partition),
    generation: e.generationId,
    memberId: e.memberId,
  }),
);
membership.on('error', (e) => print({ event: 'error', name: e.name, message: e.message }));

createInterface({ input: process.stdin }).on('line', async (line) => {
  const command = line.trim();
  if (command === 'leave' || command === 'leave-static') {
    await membership.leave({ evenIfStatic: command === 'leave-static' });
    await client.close();
    print({ event: 'left' });
    process.exit(0);
  }
  if (command === 'exit') process.exit(0);
});

setInterval(() => {
  try {
    membership.notePoll();
  } catch (err) {
    print({ event: 'error', name: (err as Error).name, message: (err as Error).message });
  }
}, 200);

membership.start({ topics: [topic] }).then(
  () => print({ event: 'started', memberId: membership.memberId }),
  (err: Error) => {
    print({ event: 'failed', name: err.name, message: err.message });
    process.exit(1);
  },
);
