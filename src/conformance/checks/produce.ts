/**
 * Produce: acks 0 / 1 / all, idempotent duplicate and out-of-order sequences, the size limit, an unknown topic
 * and an invalid acks value.
 */
import { type EncodeBatchOptions, encodeRecordBatch, type RecordInput } from '../../../codecs/records/index.js';
import { InitProducerId } from '../../../protocol/apis/init-producer-id.js';
import { ListOffsets } from '../../../protocol/apis/list-offsets.js';
import { Produce } from '../../../protocol/apis/produce.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { Connection } from '../../network/connection.js';
import { errorName, type Probe } from '../probe.js';
import { producibleByName } from '../suite.js';
import type { Check } from '../types.js';

const GUIDE = 'Kafka protocol guide, Produce API';

/** One Produce of one batch; the partition's answer. */
async function produce(
  probe: Probe,
  connection: Connection,
  topic: string,
  records: readonly RecordInput[],
  options: { acks?: number; batch?: EncodeBatchOptions } = {},
) {
  const response = await probe.send(
    connection,
    Produce,
    {
      transactionalId: null,
      acks: options.acks ?? -1,
      timeoutMs: 10_000,
      topicData: [{ name: topic, partitionData: [{ index: 0, records: encodeRecordBatch(records, options.batch) }] }],
    },
    { version: producibleByName(connection) },
  );
  const p = response.responses[0]?.partitionResponses[0];
  if (p === undefined) probe.fail('the Produce answer names no partition');
  return p;
}

async function latest(probe: Probe, connection: Connection, topic: string): Promise<bigint> {
  const response = await probe.send(connection, ListOffsets, {
    replicaId: -1,
    isolationLevel: 0,
    topics: [{ name: topic, partitions: [{ partitionIndex: 0, timestamp: -1n }] }],
  });
  return response.topics[0]?.partitions[0]?.offset ?? -1n;
}

async function idempotentProducer(probe: Probe, connection: Connection) {
  const init = await probe.suite.retryingCoordinator(
    () => probe.send(connection, InitProducerId, { transactionalId: null, transactionTimeoutMs: 60_000 }),
    (answer) => answer.errorCode,
  );
  if (init.errorCode !== 0) probe.fail(`InitProducerId answered ${errorName(init.errorCode)}`);
  return { producerId: init.producerId, producerEpoch: init.producerEpoch };
}

export const produceChecks: Check[] = [
  {
    id: 'produce.acks',
    area: 'produce',
    expected: 'acks=1 and acks=-1 answer with consecutive base offsets; acks=0 gets no answer yet appends',
    spec: GUIDE,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('produce-acks');
      const connection = await probe.suite.leader(topic, 0);
      const one = await produce(probe, connection, topic, [{ value: 'a' }, { value: 'b' }], { acks: 1 });
      probe.errorCode(one.errorCode, 0, 'acks=1');
      const all = await produce(probe, connection, topic, [{ value: 'c' }], { acks: -1 });
      probe.errorCode(all.errorCode, 0, 'acks=-1');
      probe.equal(all.baseOffset, one.baseOffset + 2n, 'base offset after a 2-record batch');
      await connection.request(
        Produce,
        {
          transactionalId: null,
          acks: 0,
          timeoutMs: 10_000,
          topicData: [{ name: topic, partitionData: [{ index: 0, records: encodeRecordBatch([{ value: 'd' }]) }] }],
        },
        { version: producibleByName(connection), expectResponse: false },
      );
      probe.note({
        api: 'Produce',
        version: producibleByName(connection),
        request: { acks: 0 },
        outcome: 'no answer expected',
      });
      let end = await latest(probe, connection, topic);
      for (const until = Date.now() + 5000; end < all.baseOffset + 2n && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        end = await latest(probe, connection, topic);
      }
      probe.equal(end, all.baseOffset + 2n, 'log end after the acks=0 record');
      return `offsets ${one.baseOffset}, ${all.baseOffset}; acks=0 appended at ${all.baseOffset + 1n}`;
    },
  },
  {
    id: 'produce.idempotent-sequences',
    area: 'produce',
    expected:
      'an idempotent producer’s duplicate batch is acknowledged with its first offset and not appended again; a sequence gap is OUT_OF_ORDER_SEQUENCE_NUMBER',
    spec: 'KIP-98 (idempotent producer)',
    async run(probe: Probe) {
      const topic = await probe.suite.topic('produce-idempotent');
      const connection = await probe.suite.leader(topic, 0);
      const pid = await idempotentProducer(probe, connection);
      const batch = (baseSequence: number) => ({ ...pid, baseSequence });
      const records = [{ value: 'one' }, { value: 'two' }];
      const first = await produce(probe, connection, topic, records, { batch: batch(0) });
      probe.errorCode(first.errorCode, 0, 'first batch (sequence 0)');
      const again = await produce(probe, connection, topic, records, { batch: batch(0) });
      probe.errorCode(again.errorCode, 0, 'the same batch again (duplicate)');
      probe.equal(again.baseOffset, first.baseOffset, 'base offset of the duplicate');
      probe.equal(await latest(probe, connection, topic), first.baseOffset + 2n, 'log end after the duplicate');
      const gap = await produce(probe, connection, topic, [{ value: 'late' }], { batch: batch(5) });
      probe.errorCode(gap.errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, 'sequence 5 when 2 is due');
      return 'duplicate acknowledged at its offset; gap OUT_OF_ORDER_SEQUENCE_NUMBER';
    },
  },
  {
    id: 'produce.size-limit',
    area: 'produce',
    expected: 'a batch larger than the topic’s max.message.bytes is MESSAGE_TOO_LARGE',
    spec: `${GUIDE}; topic config max.message.bytes`,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('produce-small', 1, { 'max.message.bytes': '2048' });
      const connection = await probe.suite.leader(topic, 0);
      const small = await produce(probe, connection, topic, [{ value: 'x'.repeat(100) }]);
      probe.errorCode(small.errorCode, 0, 'a 100-byte record');
      const big = await produce(probe, connection, topic, [{ value: 'x'.repeat(8192) }]);
      probe.errorCode(big.errorCode, ErrorCode.MESSAGE_TOO_LARGE, 'an 8 KiB record with max.message.bytes=2048');
      return 'MESSAGE_TOO_LARGE';
    },
  },
  {
    id: 'produce.unknown-topic',
    area: 'produce',
    expected: 'a produce to a topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION',
    spec: GUIDE,
    async run(probe: Probe) {
      const answer = await produce(probe, await probe.suite.any(), `${probe.suite.prefix}-absent`, [{ value: 'x' }]);
      probe.errorCode(answer.errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'produce to an unknown topic');
      return 'UNKNOWN_TOPIC_OR_PARTITION';
    },
  },
  {
    id: 'produce.invalid-acks',
    area: 'produce',
    expected: 'acks other than 0, 1 or -1 is INVALID_REQUIRED_ACKS',
    spec: GUIDE,
    async run(probe: Probe) {
      const topic = await probe.suite.topic('produce-acks');
      const answer = await produce(probe, await probe.suite.leader(topic, 0), topic, [{ value: 'x' }], { acks: 2 });
      probe.errorCode(answer.errorCode, ErrorCode.INVALID_REQUIRED_ACKS, 'acks=2');
      return 'INVALID_REQUIRED_ACKS';
    },
  },
];
