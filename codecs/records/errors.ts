import { ProtocolError } from '../errors.js';
import type { RecordBatch } from './types.js';

/** What the caller knows about where a records section came from, for error messages. */
export interface RecordsContext {
  topic?: string;
  partition?: number;
}

/**
 * A record batch or legacy message whose bytes are wrong: CRC mismatch,
 * impossible lengths or counts, unknown magic, undecodable compressed
 * payload. Names the batch (its base offset) and, when the caller said,
 * the topic and partition, so an operator can find the bad segment.
 * `offset` (from ProtocolError) is the byte position in the buffer being
 * decoded: the records section, or the decompressed payload for faults
 * inside compressed records.
 */
export class CorruptRecordError extends ProtocolError {
  override name = 'CorruptRecordError';
  readonly topic: string | undefined;
  readonly partition: number | undefined;
  /** The batch's base offset (or a legacy message's offset), when it could be read. */
  readonly baseOffset: bigint | undefined;
  /** Complete batches that preceded the bad one in the same records section (set by decodeRecords). */
  decodedBefore: RecordBatch[] = [];

  constructor(
    reason: string,
    context: RecordsContext & { baseOffset?: bigint; byteOffset?: number },
    options?: { cause?: unknown },
  ) {
    super(CorruptRecordError.describe(reason, context), { api: 'RecordBatch', offset: context.byteOffset }, options);
    this.topic = context.topic;
    this.partition = context.partition;
    this.baseOffset = context.baseOffset;
  }

  private static describe(reason: string, c: RecordsContext & { baseOffset?: bigint }): string {
    const where: string[] = [];
    if (c.topic !== undefined) where.push(`topic ${c.topic}`);
    if (c.partition !== undefined) where.push(`partition ${c.partition}`);
    if (c.baseOffset !== undefined) where.push(`batch at offset ${c.baseOffset}`);
    return where.length === 0 ? reason : `${reason} [${where.join(', ')}]`;
  }
}
