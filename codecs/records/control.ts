import { CorruptRecordError, type RecordsContext } from './errors.js';
import type { KafkaRecord } from './types.js';

/**
 * Control records: the one record of a control batch. Its key is int16
 * version + int16 type (ControlRecordType); for commit/abort markers the
 * value is an EndTxnMarker: int16 version + int32 coordinator epoch.
 */

export const CONTROL_KEY_SIZE = 4;

/** The ControlRecordType in a control record's key. Unknown types are returned as they are. */
export function controlTypeOf(record: KafkaRecord, ctx: RecordsContext & { baseOffset: bigint }): number {
  const key = record.key;
  if (key === null || key.length < CONTROL_KEY_SIZE) {
    throw new CorruptRecordError(`control record key of ${key?.length ?? 'null'} bytes, expected 4`, ctx);
  }
  return key.readInt16BE(2);
}

export interface EndTxnMarker {
  version: number;
  coordinatorEpoch: number;
}

/** Reads a commit/abort marker's value; null when it is too short to hold one. */
export function parseEndTxnMarker(value: Buffer | null): EndTxnMarker | null {
  if (value === null || value.length < 6) return null;
  return { version: value.readInt16BE(0), coordinatorEpoch: value.readInt32BE(2) };
}

export function encodeControlKey(type: number, version = 0): Buffer {
  const key = Buffer.allocUnsafe(CONTROL_KEY_SIZE);
  key.writeInt16BE(version, 0);
  key.writeInt16BE(type, 2);
  return key;
}

export function encodeEndTxnMarker(coordinatorEpoch: number, version = 0): Buffer {
  const value = Buffer.allocUnsafe(6);
  value.writeInt16BE(version, 0);
  value.writeInt32BE(coordinatorEpoch, 2);
  return value;
}
