import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { FileOffsetStore } from '../../../src/offsets/index.js';
import { bootstrap } from '../../harness/context.js';
import { JavaClients } from '../offsets/java-helper.js';
import { deleteRecordsBefore } from '../offsets/setup.js';
import { cli, newClient, newTopic, tableRows, uniqueGroup } from './setup.js';

let java: JavaClients;
let client: Client;
let topic: string;
/** Record i of partition p has timestamp T0 + i. */
const T0 = Date.parse('2024-05-01T12:00:00.000Z');

beforeAll(async () => {
  java = await JavaClients.start();
  client = newClient();
  topic = await newTopic(client, 'offsets', 2);
  // 6 records in partition 0, 4 in partition 1.
  const records = [0, 0, 0, 0, 0, 0].map((partition, i) => ({ partition, timestamp: T0 + i }));
  records.push(...[1, 1, 1, 1].map((partition, i) => ({ partition, timestamp: T0 + i })));
  await java.produce(bootstrap(), topic, records);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await java?.close();
});

async function committed(group: string): Promise<Record<string, string>> {
  const all = await client.offsets.committed(group);
  return Object.fromEntries(all.filter((c) => c.offset !== null).map((c) => [`${c.partition}`, String(c.offset)]));
}

async function committedGroup(offsets: [number, bigint][]): Promise<string> {
  const group = uniqueGroup('reset');
  await client.offsets.commit(
    group,
    offsets.map(([partition, offset]) => ({ topic, partition, offset })),
  );
  return group;
}

describe('offsets reset', () => {
  it('--to earliest / latest / <offset> / <ISO date> / --shift move the committed offsets', async () => {
    const group = await committedGroup([
      [0, 3n],
      [1, 1n],
    ]);
    const run = async (...target: string[]) => {
      const r = await cli(['offsets', 'reset', group, '--topic', topic, ...target]);
      expect(r.code, r.stderr).toBe(0);
      return committed(group);
    };
    expect(await run('--to', 'latest')).toEqual({ 0: '6', 1: '4' });
    expect(await run('--to', 'earliest')).toEqual({ 0: '0', 1: '0' });
    expect(await run('--to', '2')).toEqual({ 0: '2', 1: '2' });
    expect(await run('--to', new Date(T0 + 3).toISOString())).toEqual({ 0: '3', 1: '3' });
    expect(await run('--shift', '-2')).toEqual({ 0: '1', 1: '1' });
    expect(await run('--shift', '+10')).toEqual({ 0: '6', 1: '4' });
    // Past the log end: clamped, and the table says so.
    const r = await cli(['offsets', 'reset', group, '--topic', `${topic}:1`, '--to', '99']);
    expect(r.code).toBe(0);
    expect(tableRows(r.stdout, topic)).toEqual([[topic, '1', '4', '4', 'clamped', 'to', 'latest']]);
    expect(r.stderr).toContain(`group ${group} (Empty): moved 1 partition`);
  });

  it('--dry-run shows the plan and commits nothing; --json gives it to scripts', async () => {
    const group = await committedGroup([
      [0, 5n],
      [1, 4n],
    ]);
    const r = await cli(['offsets', 'reset', group, '--all-topics', '--to', 'earliest', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ groupId: group, dryRun: true, state: 'Empty' });
    expect(
      plan.entries.map((e: { currentOffset: number; newOffset: number }) => [e.currentOffset, e.newOffset]),
    ).toEqual([
      [5, 0],
      [4, 0],
    ]);
    expect(await committed(group)).toEqual({ 0: '5', 1: '4' });

    const text = await cli(['offsets', 'reset', group, '--all-topics', '--to', 'earliest', '--dry-run']);
    expect(text.stderr).toContain('would move 2 partitions (dry run: nothing committed)');
  });

  it('draws a progress bar and colours only on a terminal, and no colour with NO_COLOR', async () => {
    const group = await committedGroup([[0, 1n]]);
    const args = ['offsets', 'reset', group, '--topic', topic, '--to', 'latest', '--dry-run'];
    const plain = await cli(args);
    expect(plain.stderr).not.toContain('\r');
    expect(plain.stdout).not.toContain('\u001b[');
    const tty = await cli(args, { tty: true });
    expect(tty.stderr).toContain('\r');
    expect(tty.stderr).toContain('resetting offsets');
    expect(tty.stdout).toContain('\u001b[1m');
    const noColour = await cli(args, { tty: true, env: { NO_COLOR: '1' } });
    expect(noColour.stdout).not.toContain('\u001b[');
    expect(tableRows(noColour.stdout, topic)).toEqual(tableRows(plain.stdout, topic));
  });

  it('exits 3 for an unknown topic', async () => {
    const r = await cli(['offsets', 'reset', uniqueGroup('x'), '--topic', 'cli-no-such-topic-x', '--to', 'earliest']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^tidemark: topic "cli-no-such-topic-x" does not exist.*\n$/);
  });
});

describe('offsets export / import', () => {
  it('exports JSON to stdout and imports it into another group (file and stdin)', async () => {
    const source = await committedGroup([
      [0, 4n],
      [1, 2n],
    ]);
    const exported = await cli(['offsets', 'export', source]);
    expect(exported.code).toBe(0);
    const doc = JSON.parse(exported.stdout);
    expect(doc).toMatchObject({ format: 'tidemark.group-offsets', groupId: source });
    expect(doc.offsets.map((o: { offset: string }) => o.offset)).toEqual(['4', '2']);

    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-cli-'));
    const file = path.join(dir, 'offsets.json');
    await writeFile(file, exported.stdout);
    const target = uniqueGroup('import');
    const dry = await cli(['offsets', 'import', target, file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(await committed(target)).toEqual({});
    const imported = await cli(['offsets', 'import', target, 'offsets.json'], { cwd: dir });
    expect(imported.code, imported.stderr).toBe(0);
    expect(await committed(target)).toEqual({ 0: '4', 1: '2' });

    const viaStdin = uniqueGroup('stdin');
    const r = await cli(['offsets', 'import', viaStdin, '-', '--json'], { stdin: exported.stdout });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).entries).toHaveLength(2);
    expect(await committed(viaStdin)).toEqual({ 0: '4', 1: '2' });

    const out = await cli(['offsets', 'export', source, '--output', path.join(dir, 'again.json')]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('exported 2 offsets');
  });

  it('exits 3 for an unknown group or a missing file, 1 for a document that is not an export', async () => {
    const unknown = await cli(['offsets', 'export', uniqueGroup('none')]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^tidemark: group ".*" does not exist\n$/);
    const missing = await cli(['offsets', 'import', uniqueGroup('x'), '/nonexistent/offsets.json']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe('tidemark: no such file: /nonexistent/offsets.json\n');
    const bad = await cli(['offsets', 'import', uniqueGroup('x'), '-'], { stdin: '{"hello":1}' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^tidemark: invalid offsets export: format is undefined.*\n$/);
  });
});

describe('offsets delete', () => {
  it("deletes a group's offsets of a topic or of some partitions", async () => {
    const group = await committedGroup([
      [0, 1n],
      [1, 1n],
    ]);
    const one = await cli(['offsets', 'delete', group, '--topic', `${topic}:1`]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('deleted the offsets of 1 partition');
    expect(await committed(group)).toEqual({ 0: '1' });
    const all = await cli(['offsets', 'delete', group, '--topic', topic, '--json']);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout).deleted).toHaveLength(2);
    expect(await committed(group)).toEqual({});
  });

  it('exits 3 for an unknown group or topic', async () => {
    const group = await committedGroup([[0, 1n]]);
    const noTopic = await cli(['offsets', 'delete', group, '--topic', 'cli-no-such-topic-y']);
    expect(noTopic.code).toBe(3);
    expect(noTopic.stderr).toMatch(/^tidemark: topic "cli-no-such-topic-y" does not exist.*\n$/);
    const noGroup = await cli(['offsets', 'delete', uniqueGroup('none'), '--topic', topic]);
    expect(noGroup.code).toBe(3);
    expect(noGroup.stderr).toMatch(/^tidemark: group ".*" does not exist \(GROUP_ID_NOT_FOUND\)\n$/);
  });
});

describe('offsets show', () => {
  it('compares gtoffset files with the log: lag, below the log start, past the log end', async () => {
    const own = newClient();
    const trimmed = await newTopic(own, 'show', 3);
    await java.produce(
      bootstrap(),
      trimmed,
      [0, 0, 0, 0, 1, 1, 1, 1, 2].map((partition) => ({ partition })),
    );
    await deleteRecordsBefore(own, trimmed, 1, 3n);
    await own.close();

    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-cli-store-'));
    const store = new FileOffsetStore({ dir, fsync: false });
    const group = 'Billing/EU';
    await store.commit(group, [
      { topic: trimmed, partition: 0, offset: 1n },
      { topic: trimmed, partition: 1, offset: 2n },
      { topic: trimmed, partition: 2, offset: 7n },
    ]);
    await store.commit('other-group', [{ topic: trimmed, partition: 0, offset: 0n }]);
    await store.close();

    const text = await cli(['offsets', 'show', '--dir', dir, '--group', group]);
    expect(text.code, text.stderr).toBe(0);
    expect(tableRows(text.stdout, group)).toEqual([
      [group, trimmed, '0', '1', '0', '4', '3', 'ok'],
      [group, trimmed, '1', '2', '3', '4', '-', 'below-earliest'],
      [group, trimmed, '2', '7', '0', '1', '-', 'above-latest'],
    ]);
    expect(text.stdout).not.toContain('other-group');
    expect(text.stderr).toContain(`${trimmed}-1: stored offset 2 is below the log start`);
    expect(text.stderr).toContain(`${trimmed}-2: stored offset 7 is past the log end`);

    const check = await cli(['offsets', 'show', '--dir', dir, '--check', '--json']);
    expect(check.code).toBe(1);
    const rows = JSON.parse(check.stdout) as { group: string; status: string; lag: number | null }[];
    expect(rows.filter((r) => r.group === 'other-group')).toMatchObject([
      { status: 'ok', lag: 4 },
      { status: 'not-stored' },
      { status: 'not-stored' },
    ]);
  });

  it('marks files of topics that no longer exist', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-cli-store-'));
    const store = new FileOffsetStore({ dir, fsync: false });
    await store.commit('g', [{ topic: 'cli-deleted-topic-z', partition: 0, offset: 5n }]);
    await store.close();
    const r = await cli(['offsets', 'show', '--dir', dir, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ topic: 'cli-deleted-topic-z', stored: 5, status: 'no-such-topic' }]);
  });
});
