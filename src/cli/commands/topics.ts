import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { plural, table } from '../format.js';

export const topicsListCommand: Command = {
  name: 'topics list',
  summary: 'topic names',
  help: `Usage: tidemark topics list [--internal]

One topic name per line, sorted.

  --internal   include internal topics (__consumer_offsets, …)`,
  options: { internal: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const names = await ctx.client().admin.listTopics({ includeInternal: ctx.flag('internal') });
    if (ctx.json) ctx.printJson(names);
    else if (names.length > 0) ctx.out(names.join('\n'));
    return ExitCode.OK;
  },
};

export const topicsCreateCommand: Command = {
  name: 'topics create',
  summary: 'create a topic',
  help: `Usage: tidemark topics create <topic> [--partitions N] [--replication-factor N] [--config k=v]...

Creates the topic and waits until every partition has a leader. A topic that exists already exits with 5.

  -p, --partitions N           partitions (default: the broker's num.partitions)
  -r, --replication-factor N   replicas per partition (default: the broker's default.replication.factor)
  -c, --config k=v             a topic config, e.g. retention.ms=86400000; repeatable`,
  options: {
    partitions: { type: 'string', short: 'p' },
    'replication-factor': { type: 'string', short: 'r' },
    config: { type: 'string', short: 'c', multiple: true },
  },
  positionals: { min: 1, max: 1, names: '<topic>' },
  async run(ctx) {
    const configs: Record<string, string> = {};
    for (const entry of ctx.strings('config')) {
      const eq = entry.indexOf('=');
      if (eq <= 0) throw new UsageError(`--config expects key=value, got ${JSON.stringify(entry)}`);
      configs[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
    const [created] = await ctx.client().admin.createTopics([
      {
        name: ctx.positionals[0],
        numPartitions: ctx.integer('partitions', 1) ?? -1,
        replicationFactor: ctx.integer('replication-factor', 1) ?? -1,
        configs,
      },
    ]);
    if (ctx.json) ctx.printJson(created);
    else
      ctx.out(
        `created topic ${created.name} (${plural(created.numPartitions, 'partition')}, ` +
          `replication factor ${created.replicationFactor}, id ${created.topicId ?? '-'})`,
      );
    return ExitCode.OK;
  },
};

export const topicsDeleteCommand: Command = {
  name: 'topics delete',
  summary: 'delete topics',
  help: `Usage: tidemark topics delete <topic>...

Deletes the topics (their records are gone for good) and waits until metadata no longer lists them.
An unknown topic exits with 3.`,
  options: {},
  positionals: { min: 1, max: 1000, names: '<topic>' },
  async run(ctx) {
    const deleted = await ctx.client().admin.deleteTopics(ctx.positionals);
    if (ctx.json) ctx.printJson(deleted);
    else for (const d of deleted) ctx.out(`deleted topic ${d.name ?? d.topicId}`);
    return ExitCode.OK;
  },
};

export const topicsDescribeCommand: Command = {
  name: 'topics describe',
  summary: 'partitions, leaders, replicas and offsets of topics',
  help: `Usage: tidemark topics describe <topic>...

Per partition: leader, leader epoch, replicas, in-sync replicas, earliest and log end offset.
An unknown topic exits with 3.`,
  options: {},
  positionals: { min: 1, max: 1000, names: '<topic>' },
  async run(ctx) {
    const client = ctx.client();
    const topics = await client.admin.describeTopics(ctx.positionals);
    const partitions = topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partition })));
    const [earliest, latest] = await Promise.all([
      client.offsets.earliest(partitions),
      client.offsets.latest(partitions),
    ]);
    const offsetOf = (list: typeof earliest, topic: string, partition: number) =>
      list.find((l) => l.topic === topic && l.partition === partition)?.offset ?? null;
    const described = topics.map((t) => ({
      name: t.name,
      topicId: t.topicId ?? null,
      isInternal: t.isInternal,
      partitions: t.partitions.map((p) => ({
        partition: p.partition,
        leader: p.leader,
        leaderEpoch: p.leaderEpoch,
        replicas: p.replicas,
        isr: p.isr,
        offlineReplicas: p.offlineReplicas,
        earliest: offsetOf(earliest, t.name, p.partition),
        logEndOffset: offsetOf(latest, t.name, p.partition),
      })),
    }));
    if (ctx.json) {
      ctx.printJson(described);
      return ExitCode.OK;
    }
    described.forEach((t, i) => {
      if (i > 0) ctx.out('');
      ctx.out(
        `${ctx.colours.bold(`Topic ${t.name}`)}: id ${t.topicId ?? '-'}, ${plural(t.partitions.length, 'partition')}`,
      );
      const rows = t.partitions.map((p) => [
        p.partition,
        p.leader,
        p.leaderEpoch,
        p.replicas.join(','),
        p.isr.join(','),
        p.earliest,
        p.logEndOffset,
      ]);
      const headers = ['PARTITION', 'LEADER', 'EPOCH', 'REPLICAS', 'ISR', 'EARLIEST', 'LOG-END-OFFSET'];
      ctx.out(table(headers, rows, { right: [0, 1, 2, 5, 6], header: ctx.colours.bold }));
    });
    return ExitCode.OK;
  },
};
