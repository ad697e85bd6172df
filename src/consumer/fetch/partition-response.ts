import type { FetchPartitionResponse } from '../../../protocol/apis/fetch.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { type KafkaError, kafkaError } from '../../../protocol/kafka-error.js';
import { ImplausibleResponseError } from '../../network/errors.js';
import { RecordTooLargeError } from '../errors.js';
import type { PartitionState } from '../positions.js';
import { type BatchScan, scanBatches } from './batch-scan.js';
import type { FetchBuffer } from './fetch-buffer.js';
import type { FetchSettings } from './fetch-request.js';

/** What a fetch asked of one partition, kept to judge the answer against the partition's state now. */
export interface SentPartition {
  state: PartitionState;
  generation: number;
  fetchOffset: bigint;
  fetchEpoch: number;
}

/** Where a partition's answer goes when it is not plain records. */
export interface PartitionOutcomes {
  buffer: FetchBuffer;
  settings: FetchSettings;
  /** OFFSET_OUT_OF_RANGE for the offset fetched. */
  outOfRange(sent: SentPartition): void;
  /** The leader says the log diverged from what we read (KIP-320, Fetch v12+). */
  diverged(sent: SentPartition, divergingEpoch: { epoch: number; endOffset: bigint }): void;
  /** Leadership moved or is unsettled: refresh metadata and retry after a backoff. */
  leaderMoved(state: PartitionState, error: KafkaError): void;
  /** An error the application must hear about; the partition stops. */
  fatal(state: PartitionState, error: Error): void;
  /** An answer no broker gives (offsets past its own high watermark): dropped, reported, fetched again. */
  implausible(state: PartitionState, error: ImplausibleResponseError): void;
}

/** Codes after which the same partition is fetched again once metadata is refreshed. */
const LEADER_CODES: ReadonlySet<number> = new Set([
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.REPLICA_NOT_AVAILABLE,
  ErrorCode.KAFKA_STORAGE_ERROR,
  ErrorCode.FENCED_LEADER_EPOCH,
  ErrorCode.UNKNOWN_LEADER_EPOCH,
  ErrorCode.OFFSET_NOT_AVAILABLE,
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  ErrorCode.UNKNOWN_TOPIC_ID,
  ErrorCode.INCONSISTENT_TOPIC_ID,
  ErrorCode.LEADER_NOT_AVAILABLE,
  ErrorCode.NETWORK_EXCEPTION,
]);

/**
 * Applies one partition's part of a fetch response. Records are not decoded here, only their batch headers
 * scanned, so the next fetch can go out at once; the chunk waits in the buffer for the application. Returns
 * the bytes of records received.
 */
export function applyPartitionResponse(
  sent: SentPartition,
  p: FetchPartitionResponse,
  version: number,
  nodeId: number,
  out: PartitionOutcomes,
): number {
  const { state } = sent;
  let scan: BatchScan | undefined;
  if (p.errorCode === 0 && p.records !== null && p.records.length > 0) {
    scan = scanBatches(p.records, offsetBounds(sent, p, out.settings.readCommitted));
    const problem =
      scan.implausible ??
      (p.highWatermark >= 0n && p.logStartOffset > p.highWatermark
        ? `log start offset ${p.logStartOffset} lies above the high watermark ${p.highWatermark}`
        : undefined);
    if (problem !== undefined) {
      // Nothing of it is applied: not the records, not the offsets it names.
      const reason = `${state.topic}-${state.partition}: ${problem}`;
      out.implausible(state, new ImplausibleResponseError(reason, { api: 'FetchResponse', version }));
      return 0;
    }
  }
  if (p.highWatermark >= 0n) state.highWatermark = p.highWatermark;
  if (p.lastStableOffset >= 0n) state.lastStableOffset = p.lastStableOffset;
  if (p.logStartOffset >= 0n) state.logStartOffset = p.logStartOffset;
  if (p.preferredReadReplica >= 0 && p.preferredReadReplica !== nodeId) {
    state.preferredReplica = p.preferredReadReplica;
    state.preferredReplicaUntil = Date.now() + out.settings.preferredReplicaTtlMs;
  }

  if (p.errorCode !== 0) {
    const error = kafkaError(p.errorCode, {
      context: { api: 'Fetch', version, broker: nodeId, topic: state.topic, partition: state.partition },
    });
    // A follower that cannot serve us sends us back to the leader.
    state.preferredReplica = -1;
    if (p.errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) out.outOfRange(sent);
    else if (LEADER_CODES.has(p.errorCode) || error.retriable) out.leaderMoved(state, error);
    else out.fatal(state, error);
    return 0;
  }
  if (p.divergingEpoch.epoch >= 0 || p.divergingEpoch.endOffset >= 0n) {
    out.diverged(sent, p.divergingEpoch);
    return 0;
  }

  const records = p.records;
  if (records === null || records.length === 0 || scan === undefined) return 0;
  if (scan.nextOffset === undefined && !scan.corrupt) {
    // Only part of one batch. From v3 the broker returns a first batch whole even past the limits, so this is a
    // partition placed after others had used up the response; before v3 the batch can never fit.
    if (version < 3) {
      out.fatal(state, new RecordTooLargeError(state, sent.fetchOffset, out.settings.maxPartitionBytes));
    }
    return records.length;
  }
  const nextOffset = scan.nextOffset ?? sent.fetchOffset;
  // Batches wholly below the fetch offset (a compacted or re-fetched range) carry nothing new.
  if (nextOffset <= sent.fetchOffset && !scan.corrupt) return records.length;
  out.buffer.push({
    state,
    generation: sent.generation,
    records,
    fetchOffset: sent.fetchOffset,
    nextOffset,
    lastEpoch: scan.batches > 0 ? scan.lastEpoch : sent.fetchEpoch,
    highWatermark: state.highWatermark,
    lastStableOffset: state.lastStableOffset,
    logStartOffset: state.logStartOffset,
    abortedTransactions: out.settings.readCommitted ? p.abortedTransactions : null,
    corrupt: scan.corrupt,
    frame: undefined,
  });
  state.fetchOffset = nextOffset;
  if (scan.batches > 0) state.fetchEpoch = scan.lastEpoch;
  if (scan.corrupt) state.stalled = true;
  return records.length;
}

/** Where this answer's batches must lie: from the fetch offset up to the high watermark (or LSO) it names. */
function offsetBounds(sent: SentPartition, p: FetchPartitionResponse, readCommitted: boolean) {
  const byLso = readCommitted && p.lastStableOffset >= 0n;
  return {
    fetchOffset: sent.fetchOffset,
    limit: byLso ? p.lastStableOffset : p.highWatermark,
    limitName: byLso ? 'last stable offset' : 'high watermark',
  };
}
