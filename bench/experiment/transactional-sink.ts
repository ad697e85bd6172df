/**
 * Exactly-once with the application's own database: the results of processing and the consumer's offsets
 * are written in ONE transaction, so after any crash either both are there or neither is.
 *
 * The "database" here is a small durable append-only journal (Node 20 has no built-in SQLite): each
 * transaction is one frame, `[u32 length][u32 CRC-32C of the payload][payload]`, appended with a single
 * write and fsynced before the commit resolves. On open the journal is replayed; a torn tail (a frame the
 * process was killed in the middle of writing: short, or failing its checksum) is cut off, so that
 * transaction simply never happened — its records are read again from Kafka and processed again.
 *
 * How it plugs in: the journal IS the consumer's OffsetStore. The application processes a record and
 * `stage()`s its result; when the consumer commits (after each batch, on an interval, on close or revoke),
 * tidemark calls `commit(group, offsets)`, and that one call writes the staged results of every record
 * below the committed offsets together with the offsets themselves. On restart the consumer `load()`s its
 * positions from the same journal, so it resumes exactly after the last result that was stored.
 *
 *   const journal = TransactionalJournal.open('./results.journal');
 *   const consumer = new Consumer(client, { groupId: 'billing', offsetStore: journal });
 *   consumer.assign([{ topic: 'payments', partition: 0 }]);
 *   for await (const batch of consumer) {
 *     for (const r of batch.records) journal.stage('billing', r, { amount: r.value?.readUInt32BE(0) });
 *     batch.ack();
 *     await consumer.commit(); // results + offsets: one fsynced frame
 *   }
 *   journal.results(); // every stored result, each exactly once
 *
 * Run it under crash testing (SIGTERM and SIGKILL mid-stream, restarted until every record is consumed):
 *
 *   npm run experiment -- --modes d            # 100,000 records, 5 runs; --records 10000 --runs 1 is quicker
 *
 * With a real database the shape is the same: `commit()` opens a transaction, inserts the staged rows,
 * upserts `(group, topic, partition) → offset`, commits; `load()` selects the offsets. One process writes a
 * journal at a time (a database would enforce this with its own locks; here it is the caller's job).
 */
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32c } from '../../codecs/crc.js';
import type { TopicPartition } from '../../src/cluster/partition-errors.js';
import { applyCommit, type GroupOffsets } from '../../src/offsets/commit-rules.js';
import { OffsetStoreClosedError } from '../../src/offsets/errors.js';
import {
  type CommitOptions,
  emptyLoadResult,
  type LoadedOffsets,
  type OffsetCommit,
  type OffsetStore,
  type StoredOffset,
} from '../../src/offsets/offset-store.js';

/** One stored result: which record produced it, and what the application computed. */
export interface StoredResult<R = unknown> {
  group: string;
  topic: string;
  partition: number;
  offset: bigint;
  result: R;
}

interface Frame {
  group: string;
  offsets: { topic: string; partition: number; offset: string; leaderEpoch: number | null; committedAt: number }[];
  results: { topic: string; partition: number; offset: string; result: unknown }[];
}

const HEADER_BYTES = 8;

export class TransactionalJournal implements OffsetStore {
  private readonly offsets = new Map<string, GroupOffsets>();
  private readonly stored: StoredResult[] = [];
  /** Results processed but not yet committed, by group and `topic/partition`, in offset order. */
  private readonly staged = new Map<string, Map<string, StoredResult[]>>();
  private fd: number | undefined;

  private constructor(readonly file: string) {}

  /** Opens (or creates) the journal, replays it and cuts off a torn tail. */
  static open(file: string): TransactionalJournal {
    const journal = new TransactionalJournal(file);
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND, 0o644);
    const { frames, validBytes } = readFrames(readFileSync(file));
    if (validBytes < fstatSync(fd).size) {
      ftruncateSync(fd, validBytes);
      fsyncSync(fd);
    }
    // The journal's directory entry must be durable too, or a power loss could lose the whole file.
    const dir = openSync(dirname(file), constants.O_RDONLY);
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    for (const frame of frames) journal.apply(frame);
    journal.fd = fd;
    return journal;
  }

  /** Every committed result (replays the file, so it also works while another process writes it). */
  static readResults(file: string): StoredResult[] {
    const journal = new TransactionalJournal(file);
    for (const frame of readFrames(readFileSync(file)).frames) journal.apply(frame);
    return journal.stored;
  }

  /** The result of processing one record; stored by the commit that covers the record's offset. */
  stage(group: string, record: { topic: string; partition: number; offset: bigint }, result: unknown): void {
    this.assertOpen();
    let byPartition = this.staged.get(group);
    if (byPartition === undefined) {
      byPartition = new Map();
      this.staged.set(group, byPartition);
    }
    const key = `${record.topic}/${record.partition}`;
    let list = byPartition.get(key);
    if (list === undefined) {
      list = [];
      byPartition.set(key, list);
    }
    list.push({ group, topic: record.topic, partition: record.partition, offset: record.offset, result });
  }

  /** Committed results, in commit order. */
  results(): readonly StoredResult[] {
    return this.stored;
  }

  async load(group: string, partitions: readonly TopicPartition[]): Promise<LoadedOffsets> {
    this.assertOpen();
    const answer = emptyLoadResult(partitions);
    for (const [topic, byPartition] of answer) {
      for (const partition of byPartition.keys()) {
        const value = this.offsets.get(group)?.get(topic)?.get(partition);
        byPartition.set(partition, value === undefined ? undefined : { ...value });
      }
    }
    return answer;
  }

  /** The transaction: the staged results below the new offsets, and the offsets, in one fsynced frame. */
  async commit(group: string, offsets: readonly OffsetCommit[], options?: CommitOptions): Promise<void> {
    const fd = this.assertOpen();
    const current = this.offsets.get(group);
    const empty = new Map<number, StoredOffset>();
    // Validation and the never-backwards rule, exactly as tidemark's own stores apply them.
    const next = applyCommit(group, (topic) => current?.get(topic) ?? empty, offsets, options, Date.now());
    const frame: Frame = { group, offsets: [], results: [] };
    const taken: { key: string; count: number }[] = [];
    for (const [topic, byPartition] of next) {
      for (const [partition, stored] of byPartition) {
        if (!offsets.some((o) => o.topic === topic && o.partition === partition)) continue;
        frame.offsets.push({ topic, partition, offset: stored.offset.toString(), ...epochAndTime(stored) });
        const key = `${topic}/${partition}`;
        const list = this.staged.get(group)?.get(key) ?? [];
        let count = 0;
        while (count < list.length && list[count].offset < stored.offset) count++;
        for (const r of list.slice(0, count)) {
          frame.results.push({ topic, partition, offset: r.offset.toString(), result: r.result });
        }
        taken.push({ key, count });
      }
    }
    const payload = Buffer.from(JSON.stringify(frame));
    const bytes = Buffer.alloc(HEADER_BYTES + payload.length);
    bytes.writeUInt32LE(payload.length, 0);
    bytes.writeUInt32LE(crc32c(payload), 4);
    payload.copy(bytes, HEADER_BYTES);
    // One write, then fsync: the transaction is durable (committed) when fsync returns, and not before.
    writeSync(fd, bytes);
    fsyncSync(fd);
    this.apply(frame);
    for (const { key, count } of taken) this.staged.get(group)?.get(key)?.splice(0, count);
  }

  /** The member gave these topics up: their uncommitted results are void (the next owner reprocesses them). */
  async release(group: string, topics: readonly string[]): Promise<void> {
    const byPartition = this.staged.get(group);
    if (byPartition === undefined) return;
    for (const key of [...byPartition.keys()])
      if (topics.includes(key.slice(0, key.lastIndexOf('/')))) byPartition.delete(key);
  }

  /** Uncommitted results are dropped: they belong to records that will be read again. */
  async close(): Promise<void> {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.staged.clear();
  }

  private apply(frame: Frame): void {
    let group = this.offsets.get(frame.group);
    if (group === undefined) {
      group = new Map();
      this.offsets.set(frame.group, group);
    }
    for (const o of frame.offsets) {
      let topic = group.get(o.topic);
      if (topic === undefined) {
        topic = new Map();
        group.set(o.topic, topic);
      }
      topic.set(o.partition, { offset: BigInt(o.offset), leaderEpoch: o.leaderEpoch, committedAt: o.committedAt });
    }
    for (const r of frame.results) {
      this.stored.push({
        group: frame.group,
        topic: r.topic,
        partition: r.partition,
        offset: BigInt(r.offset),
        result: r.result,
      });
    }
  }

  private assertOpen(): number {
    if (this.fd === undefined) throw new OffsetStoreClosedError();
    return this.fd;
  }
}

function epochAndTime(s: StoredOffset): { leaderEpoch: number | null; committedAt: number } {
  return { leaderEpoch: s.leaderEpoch, committedAt: s.committedAt };
}

/** The whole frames at the start of `bytes`, and where they end: anything after is a torn tail. */
function readFrames(bytes: Buffer): { frames: Frame[]; validBytes: number } {
  const frames: Frame[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    const end = at + HEADER_BYTES + length;
    if (end > bytes.length) break;
    const payload = bytes.subarray(at + HEADER_BYTES, end);
    if (crc32c(payload) !== bytes.readUInt32LE(at + 4)) break;
    frames.push(JSON.parse(payload.toString('utf8')) as Frame);
    at = end;
  }
  return { frames, validBytes: at };
}
