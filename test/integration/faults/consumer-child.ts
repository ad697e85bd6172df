/**
 * A tidemark Consumer in a process of its own, for the tests that SIGKILL consumers (kill-loop, chaos).
 * Argument: JSON ChildConfig. Every record it processes is appended to the sink file (`<run> r <partition>
 * <offset>`, writeSync on an O_APPEND descriptor) before its loop body returns, so the sink holds everything
 * processed and, after a SIGKILL, possibly a few records of the batch in hand that were not. Each commit the
 * consumer reports is appended too (`<run> c <partition> <offset>`), after the store has it: a lower bound
 * of what is committed. Lines on stdout start with "@@ " and carry JSON events (`ready`, `rebalance`,
 * `closed`, `error`). stdin `close`: finish the batch in hand, close the consumer (commit, leave), exit 0.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { GroupMembershipOptions } from '../../../src/consumer/group/membership.js';
import { FileOffsetStore } from '../../../src/offsets/file/file-offset-store.js';

export interface ChildConfig {
  run: number;
  bootstrap: string;
  topic: string;
  groupId: string;
  sink: string;
  /** Subscribe with this membership (group mode), or read these partitions by assign() (manual mode). */
  group?: Omit<GroupMembershipOptions, 'groupId'>;
  assign?: number[];
  /** FileOffsetStore root; the broker stores offsets when absent. */
  offsetDir?: string;
  autoCommitIntervalMs: number;
  /** Pause after each batch, per record, so a topic lasts across many kills. */
  msPerRecord: number;
}

const config = JSON.parse(process.argv[2]) as ChildConfig;
const print = (line: object) => process.stdout.write(`@@ ${JSON.stringify(line)}\n`);
const sink = openSync(config.sink, 'a');
const append = (line: string) => writeSync(sink, line);

const client = new Client({
  bootstrap: config.bootstrap,
  clientId: `kill-child-${config.run}`,
  requestTimeoutMs: 15_000,
});
const store =
  config.offsetDir === undefined
    ? undefined
    : new FileOffsetStore({ dir: config.offsetDir, onEvent: (e) => print({ event: 'store', message: e.type }) });
const consumer = new Consumer(client, {
  groupId: config.groupId,
  autoOffsetReset: 'earliest',
  autoCommitIntervalMs: config.autoCommitIntervalMs,
  // Small fetches: batches of a few dozen records, so a kill lands inside one as often as between two.
  maxPartitionFetchBytes: 4 * 1024,
  offsetStore: store,
  group: config.group,
});
consumer.on('commit', (e) => {
  append(e.offsets.map((o) => `${config.run} c ${o.partition} ${o.offset}\n`).join(''));
});
consumer.on('rebalance', (e) =>
  print({ event: 'rebalance', kind: e.kind, partitions: e.partitions.map((p) => p.partition) }),
);
consumer.on('commit-failed', (e) => {
  if (!e.willRetry) print({ event: 'commit-failed', message: String(e.error) });
});
consumer.on('warning', (e) => print({ event: 'warning', message: e.message }));
consumer.on('offset-reset', (e) =>
  print({
    event: 'offset-reset',
    message: `${e.partition}: ${e.reason} -> ${e.corrected} (${e.earliest}..${e.latest})`,
  }),
);

const stop = new AbortController();
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'close') stop.abort();
});

async function main(): Promise<void> {
  try {
    if (config.assign !== undefined) {
      consumer.assign(config.assign.map((partition) => ({ topic: config.topic, partition })));
    } else await consumer.subscribe({ topics: [config.topic] }, { signal: stop.signal });
    print({ event: 'ready' });
    for await (const batch of consumer.batches({ signal: stop.signal })) {
      for (const r of batch.records) append(`${config.run} r ${r.partition} ${r.offset}\n`);
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(batch.records.length * config.msPerRecord)));
      // Processed: marked before a possible break, which would otherwise leave the batch unprocessed.
      batch.ack();
      if (stop.signal.aborted) break;
    }
  } catch (err) {
    // Asked to close while joining or waiting for records: close as asked.
    if (!stop.signal.aborted) throw err;
  }
  await consumer.close();
  await store?.close();
  await client.close();
  closeSync(sink);
  print({ event: 'closed' });
  process.exit(0);
}

main().catch((err: Error) => {
  print({ event: 'error', name: err.name, message: err.message });
  process.exit(1);
});
