/**
 * The five ways of committing the experiment compares (the paper's three, the transactional sink, and Kafka
 * transactions), and
 * what the parent tells each consumer process. The loops themselves are in consumer-loops.ts.
 */

export const MODES = ['a', 'b', 'c', 'd', 'e'] as const;
export type Mode = (typeof MODES)[number];
export type StopKind = 'graceful' | 'sigkill';
export const STOP_KINDS: readonly StopKind[] = ['graceful', 'sigkill'];

export const MODE_NAMES: Record<Mode, string> = {
  a: 'commit at fetch',
  b: 'async commit after processing',
  c: 'FileOffsetStore (SEO)',
  d: 'transactional sink',
  e: 'Kafka transactions',
};

export const MODE_DESCRIPTIONS: Record<Mode, string> = {
  a:
    'The flawed auto-commit: the poll loop hands fetched records to a slower processor and a timer commits ' +
    'the offsets of everything FETCHED to the broker every 100 ms, before it is processed (as Java with ' +
    'enable.auto.commit and processing off the poll thread). A graceful stop commits the fetched positions ' +
    "and closes, like KafkaConsumer.close(); the processor's queue is dropped. tidemark's own auto-commit " +
    '(which commits processed offsets only) is switched off.',
  b:
    'Broker commits sent with commitAsync() after each processed batch (of at most the run’s max records); on stop the process exits at once ' +
    'without waiting for or flushing them (what the paper’s Spark job did).',
  c:
    'tidemark with offsetStore: new FileOffsetStore(): gtoffset written (atomically, fsynced) after each ' +
    'processed batch (of at most the run’s max records); a graceful stop acknowledges the last processed record and calls close().',
  d:
    'The application’s own transactional sink (bench/experiment/transactional-sink.ts) as the OffsetStore: ' +
    'results and offsets are one fsynced journal frame; a graceful stop is as in (c).',
  e:
    'Consume-transform-produce in Kafka itself: each result is a record of an output topic, written by a ' +
    'transactional producer; a TransactionalOffsetStore puts the consumer’s offsets into the same transaction ' +
    '(KIP-447), committed after each processed batch. Every process uses the same transactional id, so a ' +
    'restart fences the killed one and aborts what it left open. Counted from the output topic read with ' +
    'read_committed; a graceful stop is as in (c).',
};

/** What one consumer process is told (JSON in argv). */
export interface ChildConfig {
  mode: Mode;
  bootstrap: string;
  topic: string;
  /** Log end offset of each partition: the consumer is done when it has processed up to them all. */
  endOffsets: number[];
  /** Records per partition as loaded (bench/load.ts): record (p, o) has value sequence p × this + o. */
  perPartition: number;
  groupId: string;
  /** Mode (c): the FileOffsetStore directory. */
  offsetDir: string;
  /** Modes (a)–(c): the observer's sinks (sink.ts). */
  recordSink: string;
  batchSink: string;
  /** Mode (d): the journal that is both the results table and the offset store. */
  journal: string;
  /** Mode (e): the output topic and the transactional id every process of the run uses. */
  outputTopic: string;
  transactionalId: string;
  maxPartitionFetchBytes: number;
  fetchMaxBytes: number;
  /** Records processed and committed as one batch at most (a delivered batch is cut into pieces). */
  maxRecords: number;
  /** The handler's rate limit: records processed per second. */
  recordsPerSecond: number;
  /** Mode (a): how often fetched offsets are committed. */
  commitIntervalMs: number;
}

/** Lines a consumer process prints on stdout for the parent. */
export const CHILD_SAYS = {
  /** Assigned, positions resolved: `ready <next offset per partition, comma-separated>`. */
  ready: 'ready',
  /** `progress <records processed by this process>`. */
  progress: 'progress',
  /** Every partition processed up to its end offset. */
  caughtUp: 'caught-up',
} as const;
