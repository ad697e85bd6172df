import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TransactionalJournal } from '../../../bench/experiment/transactional-sink.js';
import { BackwardCommitError, OffsetStoreClosedError } from '../../../src/offsets/errors.js';

const topic = 'payments';
const rec = (partition: number, offset: number) => ({ topic, partition, offset: BigInt(offset) });

describe('TransactionalJournal (the exactly-once example of bench/experiment)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'journal-'));
    file = join(dir, 'results.journal');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores the results below the committed offset together with the offset, and keeps the rest staged', async () => {
    const j = TransactionalJournal.open(file);
    for (let o = 0; o < 5; o++) j.stage('g', rec(0, o), { o });
    await j.commit('g', [{ topic, partition: 0, offset: 3n }]);
    expect(j.results().map((r) => r.offset)).toEqual([0n, 1n, 2n]);
    await j.commit('g', [{ topic, partition: 0, offset: 5n }]);
    expect(j.results().map((r) => r.offset)).toEqual([0n, 1n, 2n, 3n, 4n]);
    await j.close();

    const reopened = TransactionalJournal.open(file);
    const loaded = await reopened.load('g', [
      { topic, partition: 0 },
      { topic, partition: 1 },
    ]);
    expect(loaded.get(topic)?.get(0)?.offset).toBe(5n);
    expect(loaded.get(topic)?.get(1)).toBeUndefined();
    expect(reopened.results().map((r) => r.result)).toEqual([{ o: 0 }, { o: 1 }, { o: 2 }, { o: 3 }, { o: 4 }]);
    await reopened.close();
  });

  it('forgets staged results that were never committed (they are reprocessed after a restart)', async () => {
    const j = TransactionalJournal.open(file);
    j.stage('g', rec(0, 0), 'first');
    await j.commit('g', [{ topic, partition: 0, offset: 1n }]);
    j.stage('g', rec(0, 1), 'lost with the process');
    await j.close();
    expect(TransactionalJournal.readResults(file).map((r) => r.result)).toEqual(['first']);
  });

  it('cuts off a torn tail on open: a half-written transaction never happened, later ones append cleanly', async () => {
    const j = TransactionalJournal.open(file);
    j.stage('g', rec(0, 0), 'kept');
    await j.commit('g', [{ topic, partition: 0, offset: 1n }]);
    await j.close();
    const good = statSync(file).size;
    // A crash in the middle of the next frame's write: a header promising more bytes than arrived.
    const torn = Buffer.alloc(20);
    torn.writeUInt32LE(500, 0);
    appendFileSync(file, torn);

    const reopened = TransactionalJournal.open(file);
    expect(statSync(file).size).toBe(good);
    expect((await reopened.load('g', [{ topic, partition: 0 }])).get(topic)?.get(0)?.offset).toBe(1n);
    reopened.stage('g', rec(0, 1), 'after the crash');
    await reopened.commit('g', [{ topic, partition: 0, offset: 2n }]);
    await reopened.close();
    expect(TransactionalJournal.readResults(file).map((r) => r.result)).toEqual(['kept', 'after the crash']);
  });

  it('treats a frame failing its checksum as the end of the journal', async () => {
    const j = TransactionalJournal.open(file);
    j.stage('g', rec(0, 0), 'a');
    await j.commit('g', [{ topic, partition: 0, offset: 1n }]);
    j.stage('g', rec(0, 1), 'b');
    await j.commit('g', [{ topic, partition: 0, offset: 2n }]);
    await j.close();
    const bytes = readFileSync(file);
    bytes[bytes.length - 2] ^= 0xff; // inside the second frame's payload
    writeFileSync(file, bytes);
    expect(TransactionalJournal.readResults(file).map((r) => r.result)).toEqual(['a']);
    const reopened = TransactionalJournal.open(file);
    expect((await reopened.load('g', [{ topic, partition: 0 }])).get(topic)?.get(0)?.offset).toBe(1n);
    await reopened.close();
  });

  it('refuses a backward commit whole, writing nothing, as every tidemark store does', async () => {
    const j = TransactionalJournal.open(file);
    j.stage('g', rec(0, 0), 'a');
    await j.commit('g', [{ topic, partition: 0, offset: 1n }]);
    const size = statSync(file).size;
    await expect(j.commit('g', [{ topic, partition: 0, offset: 0n }])).rejects.toBeInstanceOf(BackwardCommitError);
    expect(statSync(file).size).toBe(size);
    await j.close();
    await expect(j.load('g', [])).rejects.toBeInstanceOf(OffsetStoreClosedError);
  });
});
