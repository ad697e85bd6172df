export { BrokerOffsetStore } from './broker-offset-store.js';
export { Consumer, type ConsumerHost, type WaitOptions } from './consumer.js';
export { type ConsumerBatch, ConsumerRecord } from './consumer-record.js';
export {
  CommitFailedError,
  ConsumerClosedError,
  IteratorInUseError,
  LogTruncationError,
  PartitionNotAssignedError,
  RecordTooLargeError,
  type TruncationSource,
} from './errors.js';
export {
  CONSUMER_CHANNELS,
  type CommitEvent,
  type CommitFailedEvent,
  type CommitReason,
  type CommitRetryEvent,
  type ConsumerEventMap,
  type ConsumerEventName,
  type ConsumerWarningEvent,
  type FetchEvent,
  type OffsetResetEvent,
  type RebalanceEvent,
  type TruncationEvent,
} from './events.js';
export type { ConsumerMetrics, LatencySummary, PartitionLag } from './metrics.js';
export type { ConsumerLogger, ConsumerOptions } from './options.js';
export type { SeekTarget } from './position-control.js';
