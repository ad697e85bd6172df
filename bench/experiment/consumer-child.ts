/**
 * One consumer process of the experiment (started by experiment-run.ts): `tsx consumer-child.ts '<ChildConfig
 * JSON>'`. It reads the topic with `new Consumer(client, …)` under its mode, hands every processed record to
 * the mode's sink, and prints ready / progress / caught-up lines on stdout. SIGTERM is the graceful stop
 * (handled as the mode says); SIGKILL needs no handling, which is the point. Exit codes: 0 after a graceful
 * stop, 1 on any error (printed on stderr).
 */
import { Client } from '../../src/client.js';
import { Consumer, type ConsumerOptions } from '../../src/consumer/index.js';
import { FileOffsetStore } from '../../src/offsets/index.js';
import type { OffsetStore } from '../../src/offsets/offset-store.js';
import {
  asyncCommitAfterProcessing,
  commitAfterProcessing,
  commitAtFetch,
  type LoopContext,
} from './consumer-loops.js';
import { openTransactionalSink } from './kafka-transactions.js';
import { CHILD_SAYS, type ChildConfig } from './modes.js';
import { type HandledRecord, Processing, say } from './processing.js';
import { AppendSink, BATCH_ENTRY_BYTES, RECORD_ENTRY_BYTES } from './sink.js';
import { TransactionalJournal } from './transactional-sink.js';

const config = JSON.parse(process.argv[2] ?? '') as ChildConfig;
const stopper = new AbortController();
process.on('SIGTERM', () => {
  // Mode (b) is the Spark job of the paper: it exits without waiting for its asynchronous commits.
  if (config.mode === 'b') process.exit(0);
  stopper.abort();
});

async function main(): Promise<void> {
  const client = new Client({ bootstrap: [config.bootstrap], clientId: `experiment-${config.mode}-${process.pid}` });
  const journal = config.mode === 'd' ? TransactionalJournal.open(config.journal) : undefined;
  const kafka = config.mode === 'e' ? await openTransactionalSink(client, config) : undefined;
  const store: OffsetStore | undefined =
    config.mode === 'c' ? new FileOffsetStore({ dir: config.offsetDir }) : (journal ?? kafka?.store);
  const options: ConsumerOptions = {
    groupId: config.groupId,
    autoOffsetReset: 'earliest',
    // (a) and (b) commit by hand; (c) and (d) keep tidemark's commit path (interval, close) and add a
    // commit after each batch, so a SIGKILL can repeat at most the batch in hand.
    autoCommit: config.mode === 'c' || config.mode === 'd' || config.mode === 'e',
    // (e) reads only committed input, as a consume-transform-produce application should.
    ...(config.mode === 'e' ? { isolationLevel: 'read_committed' as const } : {}),
    maxPartitionFetchBytes: config.maxPartitionFetchBytes,
    fetchMaxBytes: config.fetchMaxBytes,
    ...(store === undefined ? {} : { offsetStore: store }),
  };
  const consumer = new Consumer(client, options);
  consumer.on('commit-failed', ({ error, willRetry }) =>
    process.stderr.write(`commit failed${willRetry ? ' (will retry)' : ''}: ${error.message}\n`),
  );
  consumer.on('warning', ({ message }) => process.stderr.write(`warning: ${message}\n`));
  const partitions = config.endOffsets.map((_, partition) => ({ topic: config.topic, partition }));
  consumer.assign(partitions);
  const initial: number[] = [];
  for (const p of partitions) initial.push(Number(await consumer.position(p, { signal: stopper.signal })));
  say(`${CHILD_SAYS.ready} ${initial.join(',')}`);

  const sinks = config.mode !== 'd' && config.mode !== 'e';
  const recordSink = sinks ? new AppendSink(config.recordSink, RECORD_ENTRY_BYTES) : undefined;
  const batchSink = sinks ? new AppendSink(config.batchSink, BATCH_ENTRY_BYTES) : undefined;
  const sink =
    kafka !== undefined
      ? kafka.send
      : journal === undefined
        ? (r: HandledRecord) => recordSink?.append(r.partition, Number(r.offset))
        : (r: HandledRecord, sequence: number) => journal.stage(config.groupId, r, { sequence });
  const ctx: LoopContext = {
    consumer,
    processing: new Processing(config, initial, sink),
    stop: stopper.signal,
    batchSink,
    commitIntervalMs: config.commitIntervalMs,
    maxRecords: config.maxRecords,
  };
  if (config.mode === 'a') await commitAtFetch(ctx);
  else if (config.mode === 'b') await asyncCommitAfterProcessing(ctx);
  else await commitAfterProcessing(ctx);

  await consumer.close();
  await store?.close();
  await kafka?.producer.close();
  await client.close();
  recordSink?.close();
  batchSink?.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    // Stopped before the first batch (while positions resolved): a graceful stop all the same.
    if (stopper.signal.aborted && (err as Error).name === 'AbortError') process.exit(0);
    process.stderr.write(`consumer failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
