export {
  controlTypeOf,
  type EndTxnMarker,
  encodeControlKey,
  encodeEndTxnMarker,
  parseEndTxnMarker,
} from './control.js';
export { type DecodedRecords, dataRecords, decodeRecords } from './decode.js';
export { type DecodeRecordsOptions, LOG_OVERHEAD } from './decode-batch.js';
export {
  type ControlBatchOptions,
  type EncodeBatchOptions,
  encodeControlBatch,
  encodeRecordBatch,
} from './encode-batch.js';
export type { RecordHeaderInput, RecordInput } from './encode-records.js';
export { CorruptRecordError, type RecordsContext } from './errors.js';
export {
  BatchAttributes,
  ControlRecordType,
  EMPTY_HEADERS,
  KafkaRecord,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  NO_TIMESTAMP,
  type RecordBatch,
  RecordBatchBase,
  type RecordHeader,
  TimestampType,
  type TimestampTypeId,
} from './types.js';
