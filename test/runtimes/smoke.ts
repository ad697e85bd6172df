/**
 * The broker smoke test that Bun and Deno run (spawned by test/integration/runtimes/smoke.test.ts, which
 * checks everything printed here against the broker and the files):
 *
 *   bun test/runtimes/smoke.ts <config.json>
 *   deno run --allow-net --allow-read --allow-write --allow-sys=hostname --unstable-sloppy-imports \
 *     test/runtimes/smoke.ts <config.json>
 *
 * It runs the library's source as these runtimes load it, through the public API only: creates a topic,
 * produces with every compression codec, consumes it in a group that commits to the broker, consumes it again
 * in a group whose offsets live in a FileOffsetStore, and (when given a TLS listener) does the same round trip
 * over mutual TLS; the consumer's commit events are counted on node:diagnostics_channel. Each step prints one
 * JSON line on stdout; the exit code is 0 once every step ran, 1 on an error (its name and message on stdout), 2 on the time limit.
 */
import { subscribe } from 'node:diagnostics_channel';
import { readFile } from 'node:fs/promises';
import { Client, type ClientConfig, type CommitEvent, FileOffsetStore, type OffsetStore } from '../../src/index.js';
import { SMOKE_CODECS, SMOKE_RECORDS_PER_CODEC, type SmokeConfig, type SmokeRecord } from './smoke-config.js';

const config = JSON.parse(await readFile(process.argv[2] ?? '', 'utf8')) as SmokeConfig;
const TIME_LIMIT_MS = 150_000;

function report(step: string, data: object = {}): void {
  process.stdout.write(`${JSON.stringify({ step, ...data }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
}

/** The runtime this process is, by what only that runtime defines. */
function runtime(): { name: string; version: string } {
  const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } };
  if (g.Bun !== undefined) return { name: 'bun', version: g.Bun.version };
  if (g.Deno !== undefined) return { name: 'deno', version: g.Deno.version.deno };
  return { name: 'node', version: process.versions.node };
}

const commitEvents: CommitEvent[] = [];
subscribe('tidemark:consumer:commit', (message) => commitEvents.push(message as CommitEvent));

async function withClient<T>(options: ClientConfig, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ clientId: `smoke-${runtime().name}`, requestTimeoutMs: 30_000, ...options });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** Produces SMOKE_RECORDS_PER_CODEC records with each codec, one producer per codec (the codec is per producer). */
async function produce(client: Client, topic: string, codecs: readonly (typeof SMOKE_CODECS)[number][]) {
  const sent: SmokeRecord[] = [];
  for (const compression of codecs) {
    const producer = client.producer({ compression });
    const acks = await Promise.all(
      Array.from({ length: SMOKE_RECORDS_PER_CODEC }, (_, i) =>
        producer.send({ topic, key: `key-${i % 3}`, value: `${compression}-${i}` }),
      ),
    );
    await producer.close();
    acks.forEach((ack, i) => {
      sent.push({ partition: ack.partition, offset: ack.offset, value: `${compression}-${i}` });
    });
  }
  return sent;
}

/** Reads `count` records as a member of `groupId`, acks them, and closes (which commits them). */
async function consume(client: Client, topic: string, groupId: string, count: number, offsetStore?: OffsetStore) {
  const consumer = client.consumer({ groupId, autoOffsetReset: 'earliest', offsetStore });
  const received: SmokeRecord[] = [];
  try {
    await consumer.subscribe({ topics: [topic] });
    for await (const batch of consumer) {
      for (const record of batch.records) {
        received.push({ partition: record.partition, offset: record.offset, value: record.value?.toString() ?? '' });
      }
      if (received.length >= count) {
        batch.ack();
        break;
      }
    }
  } finally {
    await consumer.close();
  }
  return received;
}

async function committed(client: Client, groupId: string) {
  const offsets = await client.offsets.committed(groupId);
  return offsets.map((c) => ({ topic: c.topic, partition: c.partition, offset: c.offset }));
}

async function main(): Promise<void> {
  report('runtime', runtime());
  const { topic, groupId } = config;
  const total = SMOKE_CODECS.length * SMOKE_RECORDS_PER_CODEC;

  await withClient({ bootstrap: config.bootstrap }, async (client) => {
    await client.admin.createTopics([{ name: topic, numPartitions: 3, replicationFactor: 1 }]);
    report('created', { topic });
    report('produced', { records: await produce(client, topic, SMOKE_CODECS) });

    const events = commitEvents.length;
    const received = await consume(client, topic, groupId, total);
    report('consumed', { groupId, records: received, commitEvents: commitEvents.length - events });
    report('committed', { groupId, offsets: await committed(client, groupId) });

    const store = new FileOffsetStore({ dir: config.offsetsDir });
    try {
      report('consumed-file-store', {
        groupId: `${groupId}-file`,
        records: await consume(client, topic, `${groupId}-file`, total, store),
      });
    } finally {
      await store.close();
    }
  });

  const { tls } = config;
  if (tls === undefined) return;
  await withClient(
    { bootstrap: tls.mtlsBootstrap, tls: { ca: tls.ca, cert: tls.clientCert, key: tls.clientKey } },
    async (client) => {
      await client.admin.createTopics([{ name: tls.topic, numPartitions: 1, replicationFactor: 1 }]);
      const sent = await produce(client, tls.topic, ['gzip']);
      const received = await consume(client, tls.topic, groupId, sent.length);
      report('tls', { records: received, committed: await committed(client, groupId) });
    },
  );
  const refused = await withClient(
    { bootstrap: tls.mtlsBootstrap, tls: { ca: tls.ca }, requestTimeoutMs: 5_000 },
    (c) => c.metadata(),
  ).then(
    () => undefined,
    (error: Error) => {
      const cause = error.cause instanceof AggregateError ? (error.cause.errors[0] as Error) : error;
      return { name: cause.name, message: cause.message };
    },
  );
  report('tls-without-client-certificate', { refused });
}

const timer = setTimeout(() => {
  report('timeout', { afterMs: TIME_LIMIT_MS });
  process.exit(2);
}, TIME_LIMIT_MS);
try {
  await main();
  report('done');
  clearTimeout(timer);
  process.exit(0);
} catch (error) {
  const e = error as Error;
  report('error', { name: e.name, message: e.message, stack: e.stack });
  process.exit(1);
}
