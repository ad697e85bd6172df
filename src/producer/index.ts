export type { DeliveryCallback, RecordMetadata } from './batch.js';
export type { ProduceConnection, ProducerCluster } from './cluster-view.js';
export {
  BufferExhaustedError,
  DeliveryTimeoutError,
  DeliveryUncertainError,
  InvalidRecordError,
  ProducerClosedError,
} from './errors.js';
export { murmur2, partitionForKey, toPositive } from './murmur2.js';
export type { Acks, ProducerOptions } from './options.js';
export type { Partitioner } from './partitioner.js';
export { Producer, type ProducerCloseOptions } from './producer.js';
export type { ProducerRecord } from './record-input.js';
export {
  ProducerFencedError,
  TransactionAbortableError,
  TransactionalIdAuthorizationError,
  TransactionFatalError,
  TransactionStateError,
} from './transaction-errors.js';
export type { TransactionState } from './transaction-manager.js';
export type { TransactionalProducer } from './transaction-run.js';
export { TransactionalCommitAbortedError, TransactionalOffsetStore } from './transactional-offset-store.js';
