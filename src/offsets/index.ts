export {
  type BackwardCommit,
  BackwardCommitError,
  CorruptOffsetFileError,
  InvalidOffsetCommitError,
  InvalidOffsetStoreNameError,
  type LockHolder,
  NoStoredOffsetError,
  OffsetOutOfRangeError,
  OffsetStoreClosedError,
  OffsetStoreLockedError,
} from './errors.js';
export { AtomicWriteError } from './file/atomic-write.js';
export { FileOffsetStore, type FileOffsetStoreEvent, type FileOffsetStoreOptions } from './file/file-offset-store.js';
export { type GtoffsetContent, parseGtoffset, serializeGtoffset } from './file/gtoffset-format.js';
export { type DecodedName, decodeName, encodeName, offsetFilePaths } from './file/path-encoding.js';
export { MemoryOffsetStore } from './memory-offset-store.js';
export type {
  CommitOptions,
  GroupGeneration,
  LoadedOffsets,
  OffsetCommit,
  OffsetStore,
  StoredOffset,
} from './offset-store.js';
export {
  type AutoOffsetReset,
  type CheckedPosition,
  checkOffsetRanges,
  describeRangeEvent,
  type OffsetCorrection,
  type OffsetRange,
  type OffsetRangeCheckOptions,
  type OffsetRangeCheckResult,
  type OffsetRangeEvent,
  type OffsetReset,
  type OutOfRangePolicy,
  type PartitionRange,
} from './range-check.js';
