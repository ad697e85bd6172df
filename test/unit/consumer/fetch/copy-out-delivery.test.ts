/**
 * Default options through the whole consumer, on the fake cluster (whose connections write each response into the
 * allocator's memory, as a socket would): responses are read into reused memory (frame-pool.ts) and the records
 * handed out are decoded from copies (chunk-reader.ts), so a key, value or header kept long past its batch keeps
 * its bytes while later responses are read into the memory it came from (`processBatches`: reuse-delivery.test.ts).
 * Logic only: the real-broker test is test/integration/consumer/copy-out.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeRecordBatch } from '../../../../codecs/records/index.js';
import { Consumer } from '../../../../src/consumer/consumer.js';
import type { ConsumerRecord } from '../../../../src/consumer/consumer-record.js';
import type { Coordinators } from '../../../../src/coordinator/coordinators.js';
import { FakeKafka } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';

const PARTITIONS = 3;
const PER_PARTITION = 12_000;
const PER_BATCH = 25;
const BUFFERED = 1024 * 1024;

/** What record `offset` of partition `p` holds: key, value and one header, all naming where they come from. */
function expectedOf(p: number, offset: number): string {
  return `k${p}:${offset} v${p}:${offset}${'.'.repeat(offset % 40)} h${p}:${offset}`;
}

function actualOf(r: ConsumerRecord): string {
  return `${r.key?.toString()} ${r.value?.toString()} ${r.headers[0]?.value?.toString()}`;
}

function cluster(): FakeKafka {
  const kafka = new FakeKafka([1]);
  kafka.createTopic('t', PARTITIONS);
  for (let p = 0; p < PARTITIONS; p++) {
    const log = kafka.partition('t', p);
    for (let base = 0; base < PER_PARTITION; base += PER_BATCH) {
      const records = [...Array(PER_BATCH).keys()].map((i) => {
        const o = base + i;
        return {
          key: `k${p}:${o}`,
          value: `v${p}:${o}${'.'.repeat(o % 40)}`,
          headers: [{ key: 'h', value: `h${p}:${o}` }],
        };
      });
      const bytes = encodeRecordBatch(records, { baseOffset: BigInt(base) });
      log.batches.push({ baseOffset: BigInt(base), lastOffset: BigInt(base + PER_BATCH - 1), bytes });
    }
  }
  return kafka;
}

let open: Consumer[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  open = [];
});

function consumerOn(kafka: FakeKafka): Consumer {
  const consumer = new Consumer(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    { autoOffsetReset: 'earliest', fetchMaxWaitMs: 5, maxPartitionFetchBytes: 16_384, maxBufferedBytes: BUFFERED },
  );
  open.push(consumer);
  consumer.assign([...Array(PARTITIONS).keys()].map((partition) => ({ topic: 't', partition })));
  return consumer;
}

/** The records kept past their batches (no copy of the application's own), and what each must still hold. */
type Kept = { record: ConsumerRecord; partition: number }[];

function checkKept(kept: Kept): string[] {
  return kept
    .filter(({ record, partition }) => actualOf(record) !== expectedOf(partition, Number(record.offset)))
    .map(({ record, partition }) => `${partition}@${record.offset}: ${actualOf(record)}`);
}

describe('default options: records copied out of reused response memory (fake cluster)', () => {
  it('keys, values and headers kept from every batch keep their bytes while the pool is read into again', async () => {
    const consumer = consumerOn(cluster());
    const next = new Array<number>(PARTITIONS).fill(0);
    const wrong: string[] = [];
    const kept: Kept = [];
    for await (const batch of consumer.batches({ signal: AbortSignal.timeout(60_000) })) {
      const p = batch.partition;
      for (const r of batch.records) {
        if (Number(r.offset) !== next[p] || actualOf(r) !== expectedOf(p, next[p])) wrong.push(`${p}@${r.offset}`);
        next[p] = Number(r.offset) + 1;
      }
      kept.push({ record: batch.records[0], partition: p });
      if (next.every((n) => n === PER_PARTITION)) break;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    const memory = consumer.metrics().responseMemory;
    // Responses were read into memory earlier responses had used: the kept records' frames were read into again.
    expect(memory.reused).toBeGreaterThan(10);
    expect(memory.allocated).toBeLessThan(memory.reused);
    expect(memory.idleBytes).toBeLessThanOrEqual(BUFFERED);
    expect(kept.length).toBeGreaterThan(100);
    expect(checkKept(kept).slice(0, 5)).toEqual([]);
  }, 90_000);
});
