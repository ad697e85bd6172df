import type { TopicPartition } from '../../cluster/partition-errors.js';
import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { type Cell, table } from '../format.js';

/** `tidemark cluster describe|log-dirs|elect-leaders`: the cluster as a whole. */

export const clusterDescribeCommand: Command = {
  name: 'cluster describe',
  summary: 'cluster id, controller and brokers',
  help: `Usage: tidemark cluster describe [--operations]

The cluster id, the controller and every broker with its address and rack (DescribeCluster).
--json prints the API result (client.admin.describeCluster).

  --operations   also the operations this client is authorized to perform on the cluster`,
  options: { operations: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const d = await ctx.client().admin.describeCluster({ includeAuthorizedOperations: ctx.flag('operations') });
    if (ctx.json) {
      ctx.printJson(d);
      return ExitCode.OK;
    }
    ctx.out(`${ctx.colours.bold(`Cluster ${d.clusterId}`)}: controller ${d.controller}, ${d.brokers.length} brokers`);
    if (d.authorizedOperations !== undefined) ctx.out(`authorized operations: ${d.authorizedOperations.join(', ')}`);
    ctx.out('');
    const rows = d.brokers.map((b) => [b.nodeId, b.host, b.port, b.rack, b.nodeId === d.controller ? 'yes' : '']);
    ctx.out(table(['BROKER', 'HOST', 'PORT', 'RACK', 'CONTROLLER'], rows, { right: [0, 2], header: ctx.colours.bold }));
    return ExitCode.OK;
  },
};

export const clusterLogDirsCommand: Command = {
  name: 'cluster log-dirs',
  summary: "brokers' log directories and the replicas in them",
  help: `Usage: tidemark cluster log-dirs [--broker ID]...

Per broker and log directory, every replica with its size on disk and its lag (DescribeLogDirs).
--json prints the API result (client.admin.describeLogDirs).

  --broker ID   only this broker (default: every broker); repeatable`,
  options: { broker: { type: 'string', multiple: true } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const client = ctx.client();
    let brokers = ctx.strings('broker').map((b) => brokerId('--broker', b));
    if (brokers.length === 0) brokers = (await client.admin.describeCluster()).brokers.map((b) => b.nodeId);
    const dirs = await client.admin.describeLogDirs(brokers);
    if (ctx.json) {
      ctx.printJson(dirs);
      return ExitCode.OK;
    }
    const rows = dirs.flatMap((d): Cell[][] =>
      d.error !== null
        ? [[d.broker, d.path, d.error.errorName, null, null]]
        : d.replicas.map((r) => [
            d.broker,
            d.path,
            `${r.topic}-${r.partition}${r.isFuture ? ' (future)' : ''}`,
            r.size,
            r.offsetLag,
          ]),
    );
    ctx.out(
      table(['BROKER', 'LOG-DIR', 'REPLICA', 'SIZE', 'LAG'], rows, { right: [0, 3, 4], header: ctx.colours.bold }),
    );
    return ExitCode.OK;
  },
};

export const clusterElectLeadersCommand: Command = {
  name: 'cluster elect-leaders',
  summary: 'move leadership to preferred replicas',
  help: `Usage: tidemark cluster elect-leaders [--partition topic:N]... [--unclean]

Elects each partition's preferred replica as its leader (default: every partition of the cluster).
With --unclean, any live replica, even one outside the ISR: records may be lost. --json prints the API
result (client.admin.electLeaders).

  --partition topic:N   only this partition; repeatable
  --unclean             an unclean election`,
  options: { partition: { type: 'string', multiple: true }, unclean: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const partitions = ctx.strings('partition').map((p) => topicPartition('--partition', p));
    const results = await ctx
      .client()
      .admin.electLeaders(ctx.flag('unclean') ? 'unclean' : 'preferred', partitions.length > 0 ? partitions : null);
    if (ctx.json) ctx.printJson(results);
    else {
      const rows = results.map((r) => [r.topic, r.partition, r.elected ? 'elected' : 'already leader']);
      ctx.out(table(['TOPIC', 'PARTITION', 'RESULT'], rows, { right: [1], header: ctx.colours.bold }));
    }
    return ExitCode.OK;
  },
};

export function brokerId(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} expects a broker id, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** `orders:3` as a partition; the topic may itself contain ':'s, the last one separates. */
export function topicPartition(flag: string, text: string): TopicPartition {
  const at = text.lastIndexOf(':');
  const partition = text.slice(at + 1);
  if (at <= 0 || !/^\d+$/.test(partition)) {
    throw new UsageError(`${flag} expects topic:partition, got ${JSON.stringify(text)}`);
  }
  return { topic: text.slice(0, at), partition: Number(partition) };
}
