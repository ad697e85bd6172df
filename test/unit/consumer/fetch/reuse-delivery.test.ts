/**
 * Reused response memory through the whole consumer, with `reuseFetchBuffers` and with default options, on the
 * fake cluster (whose connections write each response into the allocator's memory, as a socket would): batches
 * handed to `processBatches` handlers are detached from the cursor and may outlive their chunk (a seek drops it
 * while they run). With the option each batch holds its frame until it settles; by default its records lie in
 * copies and it holds none. Handlers that await before reading, and seek now and then, must still read every
 * value as written, while the memory of finished responses is read into again; by default a value kept past its
 * batch must keep its bytes too. Logic only: the real-broker tests are
 * test/integration/consumer/reuse-fetch-buffers.test.ts and copy-out.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../../../src/cluster/backoff.js';
import { Consumer } from '../../../../src/consumer/consumer.js';
import type { Coordinators } from '../../../../src/coordinator/coordinators.js';
import { FakeKafka } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';
import { fuzzRng } from '../../fuzz/random.js';

const PARTITIONS = 3;
const PER_PARTITION = 20_000;

let open: Consumer[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  open = [];
});

describe.each([
  { reuseFetchBuffers: true, label: 'reuseFetchBuffers' },
  { reuseFetchBuffers: false, label: 'default options (records decoded from copies)' },
])('$label with processBatches (fake cluster)', ({ reuseFetchBuffers }) => {
  it.each([1, 2, 3, 4])(
    'a handler reads every value right after awaiting, across seeks, while response memory is reused (seed %i)',
    async (seed) => {
      const kafka = new FakeKafka([1]);
      kafka.createTopic('t', PARTITIONS);
      for (let p = 0; p < PARTITIONS; p++) kafka.append('t', p, PER_PARTITION, 10);
      const consumer = new Consumer(
        { cluster: consumerView(kafka), coordinators: {} as Coordinators },
        {
          autoOffsetReset: 'earliest',
          reuseFetchBuffers,
          fetchMaxWaitMs: 5,
          // Chunks of several 32 KiB slices (delivery.ts), so a seek can drop a chunk while a batch sliced from it still runs.
          maxPartitionFetchBytes: 200_000,
          maxBufferedBytes: 1024 * 1024,
        },
      );
      open.push(consumer);
      consumer.assign([...Array(PARTITIONS).keys()].map((partition) => ({ topic: 't', partition })));
      const rand = fuzzRng(0x5eed + seed);
      const reached = new Array<number>(PARTITIONS).fill(0);
      const wrong: string[] = [];
      const kept: { view: Buffer; copy: Buffer }[] = [];
      let seeks = 0;
      const done = new AbortController();
      const timeout = AbortSignal.timeout(60_000);
      await consumer.processBatches(
        async (batch) => {
          const p = batch.partition;
          if (seeks < 30 && rand.chance(0.3)) {
            // Back a little: the partition's queued chunks, and the chunk this batch was sliced from, are dropped
            // now, while this batch is still running.
            seeks++;
            consumer.seek({ topic: 't', partition: p }, BigInt(rand.int(Number(batch.records[0].offset) + 1)));
          }
          // Other handlers run and later responses are read (into freed memory) while this one waits.
          await sleep(rand.int(3));
          for (const r of batch.records) {
            if (r.value?.toString() !== `v${r.offset}`) wrong.push(`${p}@${r.offset}: ${r.value?.toString('hex')}`);
            reached[p] = Math.max(reached[p], Number(r.offset) + 1);
          }
          const first = batch.records[0].value!;
          kept.push({ view: first, copy: Buffer.from(first) });
          if (reached.every((n) => n === PER_PARTITION)) done.abort();
        },
        { concurrency: PARTITIONS, signal: AbortSignal.any([done.signal, timeout]) },
      );
      expect(timeout.aborted).toBe(false);
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(seeks).toBeGreaterThanOrEqual(3);
      expect(consumer.metrics().responseMemory.reused).toBeGreaterThan(0);
      const overwritten = kept.filter((k) => !k.view.equals(k.copy)).length;
      // With the option, the memory of finished batches was read into again (kept past their batch, against the
      // contract); without it, what was kept lies in copies, which nothing reuses.
      if (reuseFetchBuffers) expect(overwritten).toBeGreaterThan(0);
      else expect(overwritten).toBe(0);
    },
    90_000,
  );
});
