import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { table } from '../format.js';

/**
 * `tidemark transactions list|describe` and `tidemark producers`: the transactions administration (KIP-664),
 * for finding a hanging transaction: which transactions are open, and which producers hold a partition's
 * last stable offset back. --json prints the API result each command is made of.
 */

export const transactionsListCommand: Command = {
  name: 'transactions list',
  summary: 'the transactions every broker coordinates',
  help: `Usage: tidemark transactions list [--state STATE...] [--producer-id ID...]

Every transaction of the cluster: its transactional id, producer id, state and coordinator.
--json prints the API result (client.admin.listTransactions).

  --state STATE        only transactions in this state (Ongoing, CompleteCommit…); repeatable
  --producer-id ID     only the transactions of this producer id; repeatable`,
  options: { state: { type: 'string', multiple: true }, 'producer-id': { type: 'string', multiple: true } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const producerIds = ctx.strings('producer-id').map((id) => {
      if (!/^\d+$/.test(id))
        throw new UsageError(`--producer-id expects a non-negative integer, got ${JSON.stringify(id)}`);
      return BigInt(id);
    });
    const states = ctx.strings('state');
    const listed = await ctx.client().admin.listTransactions({ states, producerIds });
    if (ctx.json) {
      ctx.printJson(listed);
      return ExitCode.OK;
    }
    if (listed.length === 0) {
      ctx.note('no transactions');
      return ExitCode.OK;
    }
    const rows = listed.map((t) => [t.transactionalId, t.producerId, t.state, t.coordinator]);
    ctx.out(table(['TRANSACTIONAL ID', 'PRODUCER ID', 'STATE', 'COORDINATOR'], rows, { header: ctx.colours.bold }));
    return ExitCode.OK;
  },
};

export const transactionsDescribeCommand: Command = {
  name: 'transactions describe',
  summary: 'a transactional id at its coordinator',
  help: `Usage: tidemark transactions describe <transactional-id>...

Each transactional id's state, producer id and epoch, timeout, start time and the partitions of its open
transaction, as its coordinator knows them. An unknown id exits 3 (TRANSACTIONAL_ID_NOT_FOUND).
--json prints the API result (client.admin.describeTransactions).`,
  options: {},
  positionals: { min: 1, max: 1000, names: '<transactional-id>' },
  async run(ctx) {
    const described = await ctx.client().admin.describeTransactions(ctx.positionals);
    if (ctx.json) {
      ctx.printJson(described);
      return ExitCode.OK;
    }
    const rows = described.map((d) => [
      d.transactionalId,
      d.state,
      d.producerId,
      d.producerEpoch,
      d.transactionTimeoutMs,
      d.transactionStartTimeMs < 0n ? '-' : new Date(Number(d.transactionStartTimeMs)).toISOString(),
      d.coordinator,
      d.topicPartitions.map((p) => `${p.topic}-${p.partition}`).join(',') || '-',
    ]);
    const header = ['TRANSACTIONAL ID', 'STATE', 'PRODUCER ID', 'EPOCH', 'TIMEOUT MS', 'STARTED', 'COORDINATOR'];
    ctx.out(table([...header, 'PARTITIONS'], rows, { header: ctx.colours.bold }));
    return ExitCode.OK;
  },
};

export const producersCommand: Command = {
  name: 'producers',
  summary: "the active producers of a topic's partitions",
  help: `Usage: tidemark producers <topic> [--partition N...]

The producers each partition's leader holds state for: producer id and epoch, last sequence and timestamp,
coordinator epoch, and the offset their open transaction starts at (- when none is open).
--json prints the API result (client.admin.describeProducers).

  --partition N        only this partition; repeatable (default: every partition of the topic)`,
  options: { partition: { type: 'string', multiple: true } },
  positionals: { min: 1, max: 1, names: '<topic>' },
  async run(ctx) {
    const client = ctx.client();
    const topic = ctx.positionals[0];
    let numbers = ctx.strings('partition').map((p) => {
      if (!/^\d+$/.test(p)) throw new UsageError(`--partition expects a partition number, got ${JSON.stringify(p)}`);
      return Number(p);
    });
    if (numbers.length === 0) {
      const [described] = await client.admin.describeTopics([topic]);
      numbers = described.partitions.map((p) => p.partition).sort((a, b) => a - b);
    }
    const producers = await client.admin.describeProducers(numbers.map((partition) => ({ topic, partition })));
    if (ctx.json) {
      ctx.printJson(producers);
      return ExitCode.OK;
    }
    const rows = producers.flatMap((p) =>
      p.activeProducers.map((a) => [
        p.partition,
        a.producerId,
        a.producerEpoch,
        a.lastSequence,
        a.lastTimestamp < 0n ? '-' : new Date(Number(a.lastTimestamp)).toISOString(),
        a.coordinatorEpoch,
        a.currentTxnStartOffset < 0n ? '-' : a.currentTxnStartOffset,
      ]),
    );
    if (rows.length === 0) {
      ctx.note(`no active producers on ${topic}`);
      return ExitCode.OK;
    }
    const header = ['PARTITION', 'PRODUCER ID', 'EPOCH', 'LAST SEQUENCE', 'LAST TIMESTAMP', 'COORD EPOCH'];
    ctx.out(table([...header, 'TXN START OFFSET'], rows, { right: [0, 2, 3, 5, 6], header: ctx.colours.bold }));
    return ExitCode.OK;
  },
};
