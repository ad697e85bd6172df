import type { RecordsToDelete } from '../../admin/records.js';
import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { table } from '../format.js';

/** `tidemark records delete`: moves partitions' log start offsets forward (DeleteRecords). */
export const recordsDeleteCommand: Command = {
  name: 'records delete',
  summary: 'delete the records before an offset',
  help: `Usage: tidemark records delete <topic> --before OFFSET|end [--partition N]...

Deletes the records of the topic's partitions (default: all) before OFFSET, for every reader, for good.
"end" deletes everything written so far. Prints each partition's new low watermark (log start offset);
--json prints the API result (client.admin.deleteRecords).

      --before OFFSET|end   the first offset to keep
  -p, --partition N         only this partition; repeatable`,
  options: { before: { type: 'string' }, partition: { type: 'string', short: 'p', multiple: true } },
  positionals: { min: 1, max: 1, names: '<topic>' },
  async run(ctx) {
    const topic = ctx.positionals[0];
    const raw = ctx.string('before');
    if (raw === undefined) throw new UsageError('records delete: --before OFFSET|end is required');
    if (raw !== 'end' && !/^\d+$/.test(raw)) {
      throw new UsageError(`--before expects an offset or "end", got ${JSON.stringify(raw)}`);
    }
    const before = raw === 'end' ? 'high-watermark' : BigInt(raw);
    const client = ctx.client();
    let partitions = ctx.strings('partition').map((p) => {
      if (!/^\d+$/.test(p)) throw new UsageError(`--partition expects a partition number, got ${JSON.stringify(p)}`);
      return Number(p);
    });
    if (partitions.length === 0) {
      const [described] = await client.admin.describeTopics([topic]);
      partitions = described.partitions.map((p) => p.partition);
    }
    const targets: RecordsToDelete[] = partitions.map((partition) => ({ topic, partition, before }));
    const deleted = await client.admin.deleteRecords(targets);
    if (ctx.json) ctx.printJson(deleted);
    else {
      const rows = deleted.map((d) => [d.topic, d.partition, d.lowWatermark]);
      ctx.out(table(['TOPIC', 'PARTITION', 'LOW-WATERMARK'], rows, { right: [1, 2], header: ctx.colours.bold }));
    }
    return ExitCode.OK;
  },
};
