/**
 * Child process: @platformatic/kafka (needs Node >= 22, so the parent runs it
 * on Node 24) reads the whole topic from offset 0 in a fresh group, as a
 * stream of messages with the default Buffer deserialisers and default fetch
 * sizes, no autocommit. The clock starts when `consume()` has joined the
 * group and returned its stream.
 */
import { Consumer } from '@platformatic/kafka';
import { childArgs, freshGroup, Tally, withDeadline } from './child.js';

const { bootstrap, topic, expected } = childArgs();
const tally = new Tally(expected);

await withDeadline(600_000, async () => {
  const consumer = new Consumer({
    groupId: freshGroup('platformatic'),
    clientId: 'bench-platformatic',
    bootstrapBrokers: [bootstrap],
  });
  const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: false });
  tally.start();
  stream.on('data', (m) => tally.add(m.key, m.value));
  stream.on('error', (e) => {
    process.stderr.write(`${e}\n`);
    process.exit(1);
  });
  await tally.done;
  await stream.close();
  await consumer.close(true);
});
tally.report({ client: '@platformatic/kafka' });
