import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '../../client.js';
import { GTOFFSET, GTOFFSET_BACKUP } from '../../offsets/file/path-encoding.js';
import { type GtoffsetContent, parseGtoffset } from '../../offsets/index.js';
import { checkOffsetRanges, describeRangeEvent } from '../../offsets/range-check.js';
import type { Command, CommandContext } from '../command.js';
import { ExitCode, NotFoundError, UsageError } from '../errors.js';
import { table } from '../format.js';
import { progress } from '../progress.js';

/** One partition of a gtoffset file next to the log's range. */
export interface ShownOffset {
  group: string;
  topic: string;
  partition: number;
  /** Null: the topic has this partition but the file stores nothing for it. */
  stored: bigint | null;
  committedAt: string | null;
  earliest: bigint | null;
  logEndOffset: bigint | null;
  lag: bigint | null;
  /** ok, not-stored, below-earliest, above-latest, no-such-topic, no-such-partition, corrupt. */
  status: string;
  /** What a consumer starting from this file would do, when the position is out of range. */
  note: string | null;
  file: string;
}

export const showCommand: Command = {
  name: 'offsets show',
  summary: 'compare local gtoffset files with the broker: lag and out-of-range positions',
  help: `Usage: tidemark offsets show --dir <offsets dir> [--group G] [--check]

Reads the file store (<dir>/<group>/<topic>/gtoffset, written by consumers with a FileOffsetStore) without
taking its locks, and compares every stored position with the log: lag, and positions below the log start
(records deleted before they were read) or past the log end (log truncated or topic re-created). A corrupt
gtoffset falls back to gtoffset.bak, as the store does, and says so.

  --dir DIR    the offsets directory (required)
  --group G    only this group
  --check      exit with 1 when a position is out of range or a file is corrupt`,
  options: { dir: { type: 'string' }, group: { type: 'string' }, check: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const dirFlag = ctx.string('dir');
    if (dirFlag === undefined)
      throw new UsageError('offsets show: --dir is required (see tidemark offsets show --help)');
    const root = path.resolve(ctx.io.cwd, dirFlag);
    const files = await readStore(root, ctx.string('group'));
    const bar = progress(ctx.io, 'comparing with the broker', !ctx.json);
    bar.total(files.length);
    const rows: ShownOffset[] = [];
    try {
      for (const f of files) {
        rows.push(...(await compare(ctx.client(), f)));
        bar.tick(1, f.content?.topic ?? '');
      }
    } finally {
      bar.done();
    }
    const bad = rows.filter((r) => !['ok', 'not-stored'].includes(r.status));
    if (ctx.json) ctx.printJson(rows);
    else print(ctx, rows);
    return ctx.flag('check') && bad.length > 0 ? ExitCode.ERROR : ExitCode.OK;
  },
};

interface StoreFile {
  file: string;
  content: GtoffsetContent | undefined;
  /** Why gtoffset was not used (backup used, or nothing usable). */
  problem: string | undefined;
}

/** Every (group, topic) file under root, parsed; `group` filters by the group the file records. */
export async function readStore(root: string, group: string | undefined): Promise<StoreFile[]> {
  let groups: string[];
  try {
    groups = (await fs.readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`no offsets directory ${root}`);
    throw err;
  }
  const found: StoreFile[] = [];
  for (const g of groups.sort()) {
    const topics = await fs.readdir(path.join(root, g), { withFileTypes: true });
    for (const t of topics.filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      const read = await readTopicFile(path.join(root, g, t.name));
      if (read === undefined) continue;
      if (group !== undefined && read.content !== undefined && read.content.group !== group) continue;
      found.push(read);
    }
  }
  if (found.length === 0) {
    throw new NotFoundError(
      `no gtoffset files${group === undefined ? '' : ` of group ${JSON.stringify(group)}`} in ${root}`,
    );
  }
  return found;
}

async function readTopicFile(dir: string): Promise<StoreFile | undefined> {
  const file = path.join(dir, GTOFFSET);
  const attempt = async (name: string): Promise<GtoffsetContent | string | undefined> => {
    try {
      return parseGtoffset(await fs.readFile(name), name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return (err as Error).message;
    }
  };
  const primary = await attempt(file);
  if (typeof primary === 'object') return { file, content: primary, problem: undefined };
  const backup = await attempt(path.join(dir, GTOFFSET_BACKUP));
  if (primary === undefined && backup === undefined) return undefined;
  if (typeof backup === 'object') {
    const why = primary ?? 'gtoffset is missing';
    return { file: path.join(dir, GTOFFSET_BACKUP), content: backup, problem: `backup used: ${why}` };
  }
  return { file, content: undefined, problem: primary ?? backup };
}

async function compare(client: Client, f: StoreFile): Promise<ShownOffset[]> {
  if (f.content === undefined) {
    const base = { group: '?', topic: '?', partition: -1, stored: null, committedAt: null };
    return [
      {
        ...base,
        earliest: null,
        logEndOffset: null,
        lag: null,
        status: 'corrupt',
        note: f.problem ?? null,
        file: f.file,
      },
    ];
  }
  const { group, topic, partitions } = f.content;
  const rowOf = (partition: number): ShownOffset => {
    const s = partitions.get(partition);
    return {
      group,
      topic,
      partition,
      stored: s?.offset ?? null,
      committedAt: s === undefined ? null : new Date(s.committedAt).toISOString(),
      earliest: null,
      logEndOffset: null,
      lag: null,
      status: 'ok',
      note: f.problem ?? null,
      file: f.file,
    };
  };
  let earliest: Awaited<ReturnType<Client['offsets']['earliest']>>;
  let latest: typeof earliest;
  try {
    [earliest, latest] = await Promise.all([client.offsets.earliest(topic), client.offsets.latest(topic)]);
  } catch (err) {
    if ((err as { errorName?: string }).errorName !== 'UNKNOWN_TOPIC_OR_PARTITION') throw err;
    return [...partitions.keys()].map((p) => ({ ...rowOf(p), status: 'no-such-topic' }));
  }
  const inLog = new Set(latest.map((l) => l.partition));
  const all = [...new Set([...partitions.keys(), ...inLog])].sort((a, b) => a - b);
  return all.map((p) => {
    const row = rowOf(p);
    if (!inLog.has(p)) return { ...row, status: 'no-such-partition' };
    row.earliest = earliest.find((e) => e.partition === p)?.offset ?? null;
    row.logEndOffset = latest.find((e) => e.partition === p)?.offset ?? null;
    if (row.stored === null) return { ...row, status: 'not-stored' };
    if (row.earliest === null || row.logEndOffset === null) return row;
    const range = { topic, partition: p, stored: row.stored, earliest: row.earliest, latest: row.logEndOffset };
    const { events } = checkOffsetRanges([range], { outOfRange: 'clamp' });
    if (events.length === 0) return { ...row, lag: row.logEndOffset - row.stored };
    const event = events[0];
    const reason = event.reason === 'below-earliest' ? 'below-earliest' : 'above-latest';
    return { ...row, status: reason, note: describeRangeEvent(event) };
  });
}

function print(ctx: CommandContext, rows: ShownOffset[]): void {
  const c = ctx.colours;
  const status = (s: string) => (s === 'ok' ? s : s === 'not-stored' ? c.dim(s) : c.red(s));
  const headers = ['GROUP', 'TOPIC', 'PARTITION', 'STORED-OFFSET', 'EARLIEST', 'LOG-END-OFFSET', 'LAG', 'STATUS'];
  const cells = rows.map((r) => [
    r.group,
    r.topic,
    r.partition < 0 ? null : r.partition,
    r.stored,
    r.earliest,
    r.logEndOffset,
    r.lag,
    status(r.status),
  ]);
  ctx.out(table(headers, cells, { right: [2, 3, 4, 5, 6], header: c.bold }));
  const notes = [...new Set(rows.flatMap((r) => (r.note === null ? [] : [`${r.file}: ${r.note}`])))];
  for (const n of notes) ctx.note(c.yellow(n));
}
