/**
 * Opening and ending a transaction with raw requests (KIP-98), so ListOffsets and Fetch checks can see an open
 * transaction's last stable offset and an aborted one's entry. tidemark's producer is not transactional, so
 * AddPartitionsToTxn and EndTxn are defined here at the client versions (v3, the classic two-phase flow every
 * Kafka release from 2.4 to 4.x accepts from clients).
 */
import type { RecordInput } from '../../codecs/records/index.js';
import { InitProducerId } from '../../protocol/apis/init-producer-id.js';
import { array, defineApi, field, structs } from '../../protocol/schema.js';
import { errorName, type Probe } from './probe.js';

export const AddPartitionsToTxn = defineApi({
  name: 'AddPartitionsToTxn',
  key: 24,
  versions: '3',
  flexible: '3+',
  request: [
    field('transactionalId', 'string', '3'),
    field('producerId', 'int64', '3'),
    field('producerEpoch', 'int16', '3'),
    field(
      'topics',
      structs('AddPartitionsToTxnTopic', [field('name', 'string', '3'), field('partitions', array('int32'), '3')]),
      '3',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3'),
    field(
      'results',
      structs('AddPartitionsToTxnTopicResult', [
        field('name', 'string', '3'),
        field(
          'partitions',
          structs('AddPartitionsToTxnPartitionResult', [
            field('partitionIndex', 'int32', '3'),
            field('errorCode', 'int16', '3'),
          ]),
          '3',
        ),
      ]),
      '3',
    ),
  ],
});

export const EndTxn = defineApi({
  name: 'EndTxn',
  key: 26,
  versions: '3',
  flexible: '3+',
  request: [
    field('transactionalId', 'string', '3'),
    field('producerId', 'int64', '3'),
    field('producerEpoch', 'int16', '3'),
    field('committed', 'bool', '3'),
  ],
  response: [field('throttleTimeMs', 'int32', '3'), field('errorCode', 'int16', '3')],
});

const TXN_COORDINATOR = 1;

export interface OpenTransaction {
  producerId: bigint;
  producerEpoch: number;
  /** Base offset of the transactional batch written. */
  baseOffset: bigint;
  /** Commits or aborts; resolves once the coordinator has accepted (markers follow asynchronously). */
  end(commit: boolean): Promise<void>;
}

/**
 * Starts a transaction on `transactionalId` and writes `records` to the partition inside it. Skips the check
 * (with the reason) when the broker does not offer the transaction APIs at the versions clients use.
 */
export async function openTransaction(
  probe: Probe,
  transactionalId: string,
  topic: string,
  partition: number,
  records: readonly RecordInput[],
): Promise<OpenTransaction> {
  for (const api of [AddPartitionsToTxn, EndTxn]) {
    const range = probe.suite.versions.range(api.key);
    if (range === undefined || range.min > 3 || range.max < 3) {
      probe.skip(`a transaction needs ${api.name} v3, which the broker does not offer`);
    }
  }
  let coordinator = await probe.suite.coordinator(probe, transactionalId, TXN_COORDINATOR);
  const init = await probe.suite.retryingCoordinator(
    async () => {
      coordinator = await probe.suite.coordinator(probe, transactionalId, TXN_COORDINATOR);
      return probe.send(coordinator, InitProducerId, { transactionalId, transactionTimeoutMs: 60_000 });
    },
    (answer) => answer.errorCode,
  );
  if (init.errorCode !== 0) probe.fail(`InitProducerId for a transactional id answered ${errorName(init.errorCode)}`);
  const { producerId, producerEpoch } = init;
  const add = await probe.send(
    coordinator,
    AddPartitionsToTxn,
    { transactionalId, producerId, producerEpoch, topics: [{ name: topic, partitions: [partition] }] },
    { version: 3 },
  );
  const addError = add.results[0]?.partitions[0]?.errorCode ?? -1;
  if (addError !== 0) probe.fail(`AddPartitionsToTxn answered ${errorName(addError)}`);
  const baseOffset = await probe.suite.produce(probe, topic, partition, records, {
    transactionalId,
    producerId,
    producerEpoch,
    baseSequence: 0,
    transactional: true,
  });
  return {
    producerId,
    producerEpoch,
    baseOffset,
    async end(commit) {
      const response = await probe.send(
        coordinator,
        EndTxn,
        { transactionalId, producerId, producerEpoch, committed: commit },
        { version: 3 },
      );
      if (response.errorCode !== 0) probe.fail(`EndTxn answered ${errorName(response.errorCode)}`);
    },
  };
}
