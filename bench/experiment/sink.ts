import { closeSync, constants, openSync, readFileSync, statSync, writeSync } from 'node:fs';

/**
 * The observer's record of what a consumer process processed, for modes (a)–(c): one fixed-size entry per
 * processed record (partition, offset), appended with writeSync on an O_APPEND descriptor before the handler
 * returns. A write that returned is in the kernel's page cache, so it survives a SIGKILL of the process (only
 * a machine crash could lose it, and the experiment kills processes, not machines). A second file holds one
 * entry per batch handed to the application (partition, first offset, record count), from which the
 * duplicate bound of the file-store mode is checked.
 */

export const RECORD_ENTRY_BYTES = 8;
export const BATCH_ENTRY_BYTES = 12;

/** Appends entries; each call is one write(2), so a killed process leaves whole entries only. */
export class AppendSink {
  private readonly fd: number;
  private readonly entry: Buffer;

  constructor(
    file: string,
    private readonly entryBytes: number,
  ) {
    this.fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o644);
    this.entry = Buffer.alloc(entryBytes);
  }

  append(...values: number[]): void {
    for (let i = 0; i < values.length; i++) this.entry.writeUInt32LE(values[i], i * 4);
    writeSync(this.fd, this.entry, 0, this.entryBytes);
  }

  close(): void {
    closeSync(this.fd);
  }
}

export interface ProcessedRecord {
  partition: number;
  offset: number;
}

export interface HandedBatch {
  partition: number;
  first: number;
  count: number;
}

/** Entries of a record sink between two byte positions (a segment: one consumer process's lifetime). */
export function readRecords(file: string, from = 0, to?: number): ProcessedRecord[] {
  const bytes = readOrEmpty(file);
  const end = Math.min(to ?? bytes.length, bytes.length - (bytes.length % RECORD_ENTRY_BYTES));
  const out: ProcessedRecord[] = [];
  for (let at = from; at + RECORD_ENTRY_BYTES <= end; at += RECORD_ENTRY_BYTES) {
    out.push({ partition: bytes.readUInt32LE(at), offset: bytes.readUInt32LE(at + 4) });
  }
  return out;
}

export function readBatches(file: string, from = 0, to?: number): HandedBatch[] {
  const bytes = readOrEmpty(file);
  const end = Math.min(to ?? bytes.length, bytes.length - (bytes.length % BATCH_ENTRY_BYTES));
  const out: HandedBatch[] = [];
  for (let at = from; at + BATCH_ENTRY_BYTES <= end; at += BATCH_ENTRY_BYTES) {
    out.push({
      partition: bytes.readUInt32LE(at),
      first: bytes.readUInt32LE(at + 4),
      count: bytes.readUInt32LE(at + 8),
    });
  }
  return out;
}

/** The size of a sink file now (0 before the first write): where the next segment's entries begin. */
export function sinkSize(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

function readOrEmpty(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}
