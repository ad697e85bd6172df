/**
 * The produce benchmark's workload and every client's settings, in one place: the children read their
 * settings from here and the results header (bench/results/produce.md) states them from here, so what is
 * written is what ran. The settings are each client's documented throughput settings: acks all and
 * idempotence everywhere (the case), then batching as each client's own documentation advises
 * for throughput.
 */

export type ProduceCompression = 'none' | 'lz4';

/** The two cases of the issue, in the order they run. */
export const PRODUCE_CASES: readonly ProduceCompression[] = ['lz4', 'none'];

export const PRODUCE_WORKLOAD = {
  records: 2_000_000,
  valueBytes: 100,
  partitions: 8,
} as const;

/** Kafka's batching settings, for tidemark and the Java producer (the same option names and meaning). */
export const KAFKA_BATCHING = {
  /** Java's default is 5 ms; a little longer fills the larger batches under a flood of sends. */
  lingerMs: 10,
  /** Java's default is 16 KiB; Kafka's producer tuning docs raise it for throughput. 8 × 128 KiB = 1 MiB, one request. */
  batchBytes: 128 * 1024,
} as const;

/** librdkafka's settings (the binding's native Producer and kcat -P), from its INTRODUCTION.md on throughput. */
export const LIBRDKAFKA_PRODUCE: Readonly<Record<string, string>> = {
  acks: 'all',
  'enable.idempotence': 'true',
  'linger.ms': String(KAFKA_BATCHING.lingerMs),
  /** Its default, 1,000,000 bytes per batch (librdkafka's batch.size is per partition batch, like Java's). */
  'batch.size': '1000000',
  'batch.num.messages': '10000',
  /** Default 100,000: raised so a flood of produce() calls does not hit QUEUE_FULL every few milliseconds. */
  'queue.buffering.max.messages': '1000000',
  'queue.buffering.max.kbytes': '1048576',
};

/**
 * kafkajs and @platformatic/kafka have no linger or batch size: each `send()` call is one Produce request
 * per broker with all of its messages. Throughput comes from large calls; with idempotence both run one
 * request at a time per broker (kafkajs's per-broker lock, platformatic's maxInflights 1), so a few calls are
 * kept outstanding to build the next request while one is in flight.
 */
export const CALL_BATCHING = {
  messagesPerCall: 10_000,
  callsOutstanding: 4,
} as const;

/** Payload like ProducerPerformance's: random upper-case letters, so compression has real but bounded work. */
export function randomLetters(length: number): Buffer {
  const b = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) b[i] = 65 + Math.floor(Math.random() * 26);
  return b;
}

/** The values the Node children send, in turn (distinct enough that lz4 finds no repeats within a batch). */
export function payloadPool(): Buffer[] {
  return Array.from({ length: 4096 }, () => randomLetters(PRODUCE_WORKLOAD.valueBytes));
}

/** How each client is run, for the results header. */
export function settingsLines(): string[] {
  const rd = Object.entries(LIBRDKAFKA_PRODUCE)
    .map(([k, v]) => `\`${k}=${v}\``)
    .join(', ');
  const { lingerMs, batchBytes } = KAFKA_BATCHING;
  const { messagesPerCall, callsOutstanding } = CALL_BATCHING;
  return [
    `- **tidemark**: bench/clients/tidemark-produce.ts; \`acks: 'all'\`, \`idempotent: true\`, \`lingerMs: ${lingerMs}\`, \`batchSize: ${batchBytes}\`, other options default (32 MiB buffer, 5 requests in flight); one \`send()\` per record, fire and forget, paced by \`backpressure\` / \`waitForCapacity()\`; timed from the first send to \`flush()\` resolving.`,
    `- **tidemark (sendBatch)**: bench/clients/tidemark-produce-batch.ts; the same producer settings, but \`sendBatch()\` calls of ${messagesPerCall.toLocaleString('en-US')} records, ${callsOutstanding} outstanding (one promise per call, not per record; the call shape of kafkajs and @platformatic/kafka below); timed from the first call to the last call resolving.`,
    `- **tidemark (send with callback)**: bench/clients/tidemark-produce-callback.ts; the same producer settings, one \`send(record, callback)\` per record (answered through one shared callback, no promise per record: the call shape of Java's ProducerPerformance), paced as above; timed from the first send to \`flush()\` resolving.`,
    `- **kafkajs** 2.2.4: \`idempotent: true\`, \`acks: -1\`; \`send()\` calls of ${messagesPerCall.toLocaleString('en-US')} messages, ${callsOutstanding} outstanding (its idempotent producer sends one request per broker at a time). No lz4: kafkajs has no built-in lz4 codec and the kafkajs-lz4 plug-in is not installed.`,
    `- **@platformatic/kafka**: on Node 24 (it needs ≥ 22); \`idempotent: true\` (which makes it \`acks: -1\`, one request in flight per connection), its own lz4; \`send()\` calls of ${messagesPerCall.toLocaleString('en-US')} messages, ${callsOutstanding} outstanding, round-robin partitioning of keyless messages.`,
    `- **@confluentinc/kafka-javascript** (the librdkafka binding): its native \`Producer\`, one \`produce()\` per record, a delivery report for each (\`dr_cb\`), waiting on QUEUE_FULL; ${rd}, \`compression.codec\` as the case; timed from the first produce() to \`flush()\` returning.`,
    `- **kcat** (Debian, same librdkafka settings through \`-X\`, \`-z\` the codec): \`-P -l FILE\`, one record per line of a file of random letters written before the round; timed over the whole process (start-up and connection, tens of milliseconds on loopback, included); CPU and peak RSS from GNU time.`,
    `- **Kafka Java producer**: kafka-tools ProducerPerformance \`--throughput -1\`, \`acks=all enable.idempotence=true linger.ms=${lingerMs} batch.size=${batchBytes} compression.type=<case>\`, other settings default; its final total records/sec (first send to close, which waits for every acknowledgement); CPU and peak RSS from GNU time over the whole JVM, start-up and JIT included.`,
  ];
}
