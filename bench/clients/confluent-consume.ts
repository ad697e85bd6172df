/**
 * Child process: @confluentinc/kafka-javascript (librdkafka binding, built
 * from source by bench/clients/rdkafka-build.ts) through its native,
 * node-rdkafka-style API: `KafkaConsumer` with `consume(n, cb)` batches, the
 * binding's fastest consume path (each call takes up to n messages that
 * librdkafka has already prefetched, converted in one trip to C++ on a libuv
 * worker thread). Fresh group, offset 0, no autocommit, like the others.
 *
 * Settings, and why (what a user tuning for throughput would set):
 * - fetch sizes are librdkafka's defaults, which are the other clients'
 *   too: fetch.max.bytes 50 MiB (tidemark, platformatic), max.partition.fetch.bytes
 *   1 MiB (tidemark, kafkajs);
 * - queued.max.messages.kbytes 32 MiB: the prefetch queue bounded in bytes
 *   like tidemark's maxBufferedBytes (librdkafka's default is 64 MiB);
 *   queued.min.messages stays at its default (100,000 per partition), so
 *   the byte bound is the one that applies;
 * - fetch.queue.backoff.ms 10 (default 1000): once the queue is over its
 *   bound librdkafka waits this long before fetching a partition again; at
 *   the default a consumer that drains 32 MiB in well under a second would
 *   sit idle (the option's own docs say to lower it in that case);
 * - enable.partition.eof off: no EOF events to skip;
 * - consume(1000) with a 100 ms timeout that applies to the first message
 *   only (setDefaultIsTimeoutOnlyForFirstMessage, which the package's own
 *   KafkaJS layer sets): a call returns what is queued at once, instead of
 *   waiting up to the timeout for each further message.
 *
 * The clock starts at the rebalance callback that assigns the partitions
 * (the group join done), as for the KafkaJS-compatible client: starting it
 * at the first record would hide what librdkafka prefetched meanwhile.
 */
import ckjs from '@confluentinc/kafka-javascript';
import { childArgs, freshGroup, Tally, withDeadline } from './child.js';

/**
 * Messages per consume() call. 250 to 2,000 cost the same CPU here (about 6.3 µs per record, most of it the
 * binding's C++ building one JS object and one Buffer copy per message); 10,000 cost 8 µs and 100,000
 * 14 µs (more garbage-collector work with the whole batch alive at once).
 */
const BATCH = 1_000;
const { bootstrap, topic, expected } = childArgs();
const tally = new Tally(expected);

await withDeadline(600_000, async () => {
  const consumer = new ckjs.KafkaConsumer(
    {
      'metadata.broker.list': bootstrap,
      'client.id': 'bench-confluent',
      'group.id': freshGroup('confluent'),
      'enable.auto.commit': false,
      'enable.partition.eof': false,
      'queued.max.messages.kbytes': 32 * 1024,
      'fetch.queue.backoff.ms': 10,
      // The library's own assign (boolean): we only start the clock.
      rebalance_cb: true,
    },
    { 'auto.offset.reset': 'earliest' },
  );
  consumer.on('rebalance', (err) => {
    if (err.code === ckjs.CODES.ERRORS.ERR__ASSIGN_PARTITIONS) tally.start();
  });
  await new Promise<void>((resolve, reject) => {
    consumer.connect({}, (err) => (err ? reject(err) : resolve()));
  });
  consumer.setDefaultConsumeTimeout(100);
  // Public on the prototype, documented in lib/kafka-consumer.js (not in the .d.ts); the KafkaJS layer uses it too.
  (
    consumer as unknown as { setDefaultIsTimeoutOnlyForFirstMessage(v: boolean): void }
  ).setDefaultIsTimeoutOnlyForFirstMessage(true);
  consumer.subscribe([topic]);
  await new Promise<void>((resolve, reject) => {
    const next = () =>
      consumer.consume(BATCH, (err, messages) => {
        if (err) return reject(err);
        for (const m of messages) tally.add(m.key as Buffer | null | undefined, m.value);
        if (tally.records >= expected) resolve();
        else next();
      });
    next();
  });
  await tally.done;
  await new Promise<void>((resolve) => consumer.disconnect(() => resolve()));
});
tally.report({ client: '@confluentinc/kafka-javascript (KafkaConsumer.consume)', librdkafka: ckjs.librdkafkaVersion });
