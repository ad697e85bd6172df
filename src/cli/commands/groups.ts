import type { GroupOffsetsDescription } from '../../admin/group-lag.js';
import type { Command, CommandContext } from '../command.js';
import { ExitCode, NotFoundError } from '../errors.js';
import { plural, table } from '../format.js';

export const groupsCommand: Command = {
  name: 'groups',
  summary: 'list consumer groups with their state and protocol',
  help: `Usage: tidemark groups [--state S]... [--type T]...

Lists every group of the cluster: id, state, type (classic or consumer), protocol type and coordinator.

  --state S   only groups in this state (Empty, Stable, …; repeatable)
  --type T    only groups of this type (classic, consumer; repeatable)`,
  options: { state: { type: 'string', multiple: true }, type: { type: 'string', multiple: true } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const states = ctx.strings('state');
    const types = ctx.strings('type');
    const groups = await ctx
      .client()
      .groups.listGroups({ ...(states.length > 0 ? { states } : {}), ...(types.length > 0 ? { types } : {}) });
    if (ctx.json) {
      ctx.printJson(groups);
      return ExitCode.OK;
    }
    if (groups.length === 0) {
      ctx.note('no groups');
      return ExitCode.OK;
    }
    const rows = groups.map((g) => [g.groupId, g.state, g.type, g.protocolType, g.coordinator]);
    ctx.out(table(['GROUP', 'STATE', 'TYPE', 'PROTOCOL', 'COORDINATOR'], rows, { header: ctx.colours.bold }));
    return ExitCode.OK;
  },
};

export const describeCommand: Command = {
  name: 'describe',
  summary: 'a group: members, assignment, committed offsets, log end offsets and lag',
  help: `Usage: tidemark describe <group> [--members] [--read-committed]

Shows the group's state, assignor and members, then per partition the committed offset, the log end offset
and the lag, as kafka-consumer-groups --describe does. A group that does not exist exits with 3.

  --members          list the members and their assignment only
  --read-committed   measure lag against the last stable offset (transactions) instead of the high watermark`,
  options: { members: { type: 'boolean' }, 'read-committed': { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: '<group>' },
  async run(ctx) {
    const groupId = ctx.positionals[0];
    const description = await ctx.client().groups.describeGroupOffsets(groupId, {
      isolationLevel: ctx.flag('read-committed') ? 'read_committed' : 'read_uncommitted',
    });
    const { group } = description;
    if (group.state === 'Dead' && description.partitions.length === 0) {
      throw new NotFoundError(`group ${JSON.stringify(groupId)} does not exist`);
    }
    if (ctx.json) {
      ctx.printJson(description);
      return ExitCode.OK;
    }
    printDescription(ctx, description);
    return ExitCode.OK;
  },
};

function printDescription(ctx: CommandContext, d: GroupOffsetsDescription): void {
  const { group } = d;
  const c = ctx.colours;
  const members = group.members;
  const protocol = [group.protocolType, group.assignor].filter((s) => s !== '').join('/') || '-';
  ctx.out(
    `${c.bold(`Group ${group.groupId}`)}: ${group.state}, ${group.type ?? 'classic'} protocol ${protocol}, ` +
      `${members === undefined ? 'members unknown' : plural(members.length, 'member')}, coordinator ${group.coordinator}`,
  );
  if (members !== undefined && members.length > 0) {
    const rows = members.map((m) => [
      m.memberId,
      m.groupInstanceId,
      m.clientId,
      m.clientHost,
      assignment(m.assignment) || '-',
    ]);
    ctx.out('');
    ctx.out(table(['MEMBER-ID', 'INSTANCE-ID', 'CLIENT-ID', 'HOST', 'ASSIGNMENT'], rows, { header: c.bold }));
  }
  if (ctx.flag('members')) return;
  ctx.out('');
  if (d.partitions.length === 0) {
    ctx.out('no committed offsets and no assigned partitions');
    return;
  }
  const rows = d.partitions.map((p) => [
    p.topic,
    p.partition,
    p.committedOffset,
    p.logEndOffset,
    p.lag === null ? null : p.lag > 0n ? c.yellow(String(p.lag)) : p.lag,
    p.member?.memberId,
    p.member?.clientHost,
    p.member?.clientId,
  ]);
  const headers = ['TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'CONSUMER-ID', 'HOST', 'CLIENT-ID'];
  ctx.out(table(headers, rows, { right: [1, 2, 3, 4], header: c.bold }));
  ctx.out('');
  ctx.out(`total lag ${d.totalLag} over ${plural(d.partitions.length, 'partition')}`);
}

/** `orders: 0,1,2; audit: 0`. */
export function assignment(partitions: readonly { topic: string; partition: number }[]): string {
  const byTopic = new Map<string, number[]>();
  for (const p of partitions) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p.partition]);
  return [...byTopic]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([t, ps]) => `${t}: ${ps.sort((a, b) => a - b).join(',')}`)
    .join('; ');
}
