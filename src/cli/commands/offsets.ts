import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ResetPlan, ResetTarget } from '../../admin/reset-offsets.js';
import type { TopicPartition } from '../../cluster/partition-errors.js';
import type { Command, CommandContext } from '../command.js';
import { ExitCode, NotFoundError, UsageError } from '../errors.js';
import { plural, table } from '../format.js';
import { progress } from '../progress.js';

const SCOPE_HELP = `  --topic T[:P,P…]   the topic (or some of its partitions); repeatable`;

export const resetCommand: Command = {
  name: 'offsets reset',
  summary: "move an inactive group's committed offsets",
  help: `Usage: tidemark offsets reset <group> (--topic T[:P,P…]... | --all-topics)
         (--to earliest|latest|<offset>|<ISO date> | --shift N) [--dry-run]

Commits new offsets for a group without live members (stop its consumers first; a live group exits with 5).
Offsets outside the log are moved to its nearest end.

${SCOPE_HELP}
  --all-topics       every partition the group has committed
  --to earliest      the log start;  --to latest: the log end
  --to 1200          this offset on every partition
  --to 2024-05-01T12:00:00Z   the first record at or after this time (ISO 8601)
  --shift N          each committed offset moved by N (negative: back)
  --dry-run          show the plan, commit nothing`,
  options: {
    topic: { type: 'string', multiple: true },
    'all-topics': { type: 'boolean' },
    to: { type: 'string' },
    shift: { type: 'string' },
    'dry-run': { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: '<group>' },
  async run(ctx) {
    const groupId = ctx.positionals[0];
    const target = resetTarget(ctx.string('to'), ctx.string('shift'));
    const scope = topicScope(ctx.strings('topic'));
    if (scope.topics.length + scope.partitions.length === 0 && !ctx.flag('all-topics')) {
      throw new UsageError('offsets reset: say which partitions: --topic T or --all-topics');
    }
    if (scope.topics.length + scope.partitions.length > 0 && ctx.flag('all-topics')) {
      throw new UsageError('offsets reset: --topic and --all-topics exclude each other');
    }
    const bar = progress(ctx.io, `resetting offsets of ${groupId}`, !ctx.json);
    let plan: ResetPlan;
    try {
      plan = await ctx.client().groups.resetOffsets(groupId, target, {
        ...(scope.topics.length > 0 ? { topics: scope.topics } : {}),
        ...(scope.partitions.length > 0 ? { partitions: scope.partitions } : {}),
        dryRun: ctx.flag('dry-run'),
      });
    } finally {
      bar.done();
    }
    printPlan(ctx, plan);
    return ExitCode.OK;
  },
};

export const exportCommand: Command = {
  name: 'offsets export',
  summary: "a group's committed offsets as JSON",
  help: `Usage: tidemark offsets export <group> [--output FILE]

Writes the group's committed offsets as a JSON document (format tidemark.group-offsets, offsets as decimal
strings) to stdout, or to FILE. Feed it to \`tidemark offsets import\`.

  -o, --output FILE   write to FILE instead of stdout`,
  options: { output: { type: 'string', short: 'o' } },
  positionals: { min: 1, max: 1, names: '<group>' },
  async run(ctx) {
    const groupId = ctx.positionals[0];
    const client = ctx.client();
    const bar = progress(ctx.io, `exporting offsets of ${groupId}`, !ctx.json);
    try {
      const [[group], doc] = await Promise.all([
        client.groups.describeGroups([groupId]),
        client.groups.exportOffsets(groupId),
      ]);
      bar.done();
      if (group.state === 'Dead' && doc.offsets.length === 0) {
        throw new NotFoundError(`group ${JSON.stringify(groupId)} does not exist`);
      }
      const text = `${JSON.stringify(doc, null, 2)}\n`;
      const output = ctx.string('output');
      if (output === undefined) ctx.out(text);
      else {
        await writeFile(path.resolve(ctx.io.cwd, output), text);
        ctx.note(`exported ${plural(doc.offsets.length, 'offset')} of group ${groupId} to ${output}`);
      }
      return ExitCode.OK;
    } finally {
      bar.done();
    }
  },
};

export const importCommand: Command = {
  name: 'offsets import',
  summary: 'commit the offsets of an export to a group',
  help: `Usage: tidemark offsets import <group> <file|-> [--dry-run]

Commits the offsets of a \`tidemark offsets export\` document (from FILE, or stdin for -) to <group>, which
may differ from the exported one. The group must have no live members (exit 5 otherwise).

  --dry-run   show the plan, commit nothing`,
  options: { 'dry-run': { type: 'boolean' } },
  positionals: { min: 2, max: 2, names: '<group> <file>' },
  async run(ctx) {
    const [groupId, file] = ctx.positionals;
    const text = file === '-' ? await readAll(ctx.io.stdin) : await readInput(path.resolve(ctx.io.cwd, file));
    const plan = await ctx.client().groups.importOffsets(text, { groupId, dryRun: ctx.flag('dry-run') });
    printPlan(ctx, plan);
    return ExitCode.OK;
  },
};

export const deleteCommand: Command = {
  name: 'offsets delete',
  summary: "delete a group's committed offsets for topics",
  help: `Usage: tidemark offsets delete <group> --topic T[:P,P…]...

Deletes the group's committed offsets of the topic's partitions (all of them, or those listed). Refused
(exit 5) for topics the group's live members subscribe to; an unknown group or topic exits with 3.

${SCOPE_HELP}`,
  options: { topic: { type: 'string', multiple: true } },
  positionals: { min: 1, max: 1, names: '<group>' },
  async run(ctx) {
    const groupId = ctx.positionals[0];
    const scope = topicScope(ctx.strings('topic'));
    if (scope.topics.length + scope.partitions.length === 0) {
      throw new UsageError('offsets delete: say which topic: --topic T');
    }
    const client = ctx.client();
    const partitions = [...scope.partitions];
    if (scope.topics.length > 0) {
      for (const t of await client.admin.describeTopics(scope.topics)) {
        for (const p of t.partitions) partitions.push({ topic: t.name, partition: p.partition });
      }
    }
    await client.groups.deleteOffsets(groupId, partitions);
    if (ctx.json) ctx.printJson({ groupId, deleted: partitions });
    else ctx.out(`deleted the offsets of ${plural(partitions.length, 'partition')} for group ${groupId}`);
    return ExitCode.OK;
  },
};

/** `--to` / `--shift` as a reset target; exactly one of them. */
export function resetTarget(to: string | undefined, shift: string | undefined): ResetTarget {
  if ((to === undefined) === (shift === undefined)) {
    throw new UsageError('offsets reset: give exactly one of --to and --shift');
  }
  if (shift !== undefined) {
    if (!/^[+-]?\d+$/.test(shift)) throw new UsageError(`--shift expects an integer, got ${JSON.stringify(shift)}`);
    return { shiftBy: BigInt(shift) };
  }
  const value = (to as string).trim();
  if (value === 'earliest' || value === 'latest') return value;
  if (/^\d+$/.test(value)) return { offset: BigInt(value) };
  const time = Date.parse(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value) && Number.isFinite(time)) return { timestamp: time };
  throw new UsageError(
    `--to expects earliest, latest, an offset or an ISO 8601 date (2024-05-01T12:00:00Z), got ${JSON.stringify(to)}`,
  );
}

/** `orders` (the whole topic) or `orders:0,2` (some partitions). */
export function topicScope(specs: readonly string[]): { topics: string[]; partitions: TopicPartition[] } {
  const topics: string[] = [];
  const partitions: TopicPartition[] = [];
  for (const spec of specs) {
    const [topic, list, ...rest] = spec.split(':');
    if (topic === '' || rest.length > 0)
      throw new UsageError(`--topic expects T or T:P,P…, got ${JSON.stringify(spec)}`);
    if (list === undefined) {
      topics.push(topic);
      continue;
    }
    for (const p of list.split(',')) {
      if (!/^\d+$/.test(p)) throw new UsageError(`--topic ${spec}: ${JSON.stringify(p)} is not a partition number`);
      partitions.push({ topic, partition: Number(p) });
    }
  }
  return { topics, partitions };
}

function printPlan(ctx: CommandContext, plan: ResetPlan): void {
  if (ctx.json) {
    ctx.printJson(plan);
    return;
  }
  const verb = plan.dryRun ? 'would move' : 'moved';
  const rows = plan.entries.map((e) => [
    e.topic,
    e.partition,
    e.currentOffset,
    e.newOffset,
    e.clamped === undefined ? '' : `clamped to ${e.clamped}`,
  ]);
  if (rows.length > 0) {
    const headers = ['TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'NEW-OFFSET', 'NOTE'];
    ctx.out(table(headers, rows, { right: [1, 2, 3], header: ctx.colours.bold }));
  }
  const dry = plan.dryRun ? ctx.colours.yellow(' (dry run: nothing committed)') : '';
  ctx.note(`group ${plan.groupId} (${plan.state}): ${verb} ${plural(plan.entries.length, 'partition')}${dry}`);
}

async function readInput(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`no such file: ${file}`);
    throw err;
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
