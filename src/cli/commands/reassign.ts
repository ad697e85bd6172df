import type { ReplicaMove } from '../../admin/reassignments.js';
import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { table } from '../format.js';
import { brokerId, topicPartition } from './cluster.js';

/** `tidemark reassign start|list|cancel`: moving partition replicas between brokers. */

export const reassignStartCommand: Command = {
  name: 'reassign start',
  summary: 'move partition replicas to other brokers',
  help: `Usage: tidemark reassign start --move topic:N=ID,ID... [--move …]

Starts moving each partition's replicas to the brokers listed (the first is the preferred leader); the
move runs in the background, see \`tidemark reassign list\`. A broker that does not exist is refused by the
controller with its reason (exit 5). --json prints the API result (client.admin.alterPartitionReassignments).

  --move topic:N=IDS   the partition and its new replica list; repeatable`,
  options: { move: { type: 'string', multiple: true } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const moves: ReplicaMove[] = ctx.strings('move').map((m) => {
      const eq = m.lastIndexOf('=');
      if (eq <= 0) throw new UsageError(`--move expects topic:partition=id,id…, got ${JSON.stringify(m)}`);
      const replicas = m
        .slice(eq + 1)
        .split(',')
        .map((id) => brokerId('--move', id));
      return { ...topicPartition('--move', m.slice(0, eq)), replicas };
    });
    if (moves.length === 0) throw new UsageError('reassign start: give at least one --move topic:N=IDS');
    const started = await ctx.client().admin.alterPartitionReassignments(moves);
    if (ctx.json) ctx.printJson(started);
    else for (const s of started) ctx.out(`moving ${s.topic}-${s.partition}`);
    return ExitCode.OK;
  },
};

export const reassignCancelCommand: Command = {
  name: 'reassign cancel',
  summary: 'cancel replica moves in progress',
  help: `Usage: tidemark reassign cancel --partition topic:N...

Cancels the partitions' moves in progress (their replicas return to the lists before the move).
--json prints the API result (client.admin.alterPartitionReassignments).

  --partition topic:N   repeatable`,
  options: { partition: { type: 'string', multiple: true } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const partitions = ctx.strings('partition').map((p) => topicPartition('--partition', p));
    if (partitions.length === 0) throw new UsageError('reassign cancel: give at least one --partition topic:N');
    const cancelled = await ctx
      .client()
      .admin.alterPartitionReassignments(partitions.map((p) => ({ ...p, replicas: null })));
    if (ctx.json) ctx.printJson(cancelled);
    else for (const c of cancelled) ctx.out(`cancelled the move of ${c.topic}-${c.partition}`);
    return ExitCode.OK;
  },
};

export const reassignListCommand: Command = {
  name: 'reassign list',
  summary: 'replica moves in progress',
  help: `Usage: tidemark reassign list

Every replica move in progress: the partition, its replicas, and those being added and removed.
--json prints the API result (client.admin.listPartitionReassignments).`,
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const ongoing = await ctx.client().admin.listPartitionReassignments();
    if (ctx.json) {
      ctx.printJson(ongoing);
      return ExitCode.OK;
    }
    if (ongoing.length === 0) {
      ctx.note('no reassignments in progress');
      return ExitCode.OK;
    }
    const rows = ongoing.map((r) => [
      r.topic,
      r.partition,
      r.replicas.join(','),
      r.addingReplicas.join(','),
      r.removingReplicas.join(','),
    ]);
    ctx.out(
      table(['TOPIC', 'PARTITION', 'REPLICAS', 'ADDING', 'REMOVING'], rows, { right: [1], header: ctx.colours.bold }),
    );
    return ExitCode.OK;
  },
};
