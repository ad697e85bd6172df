import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';

/** `tidemark topics add-partitions`: raises a topic's partition count (CreatePartitions). */
export const topicsAddPartitionsCommand: Command = {
  name: 'topics add-partitions',
  summary: "raise a topic's partition count",
  help: `Usage: tidemark topics add-partitions <topic> --count N [--assign 1,2:2,3…] [--validate-only]

Raises the topic's partition count to N (Kafka never removes partitions: a count at or below the current
one is refused, exit 5) and waits until the new partitions have leaders. --json prints the API result
(client.admin.createPartitions).

  -n, --count N        the new total number of partitions
      --assign LIST    replica broker ids of each new partition: partitions separated by ':', ids by ','
      --validate-only  only check the change`,
  options: {
    count: { type: 'string', short: 'n' },
    assign: { type: 'string' },
    'validate-only': { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: '<topic>' },
  async run(ctx) {
    const count = ctx.integer('count', 1);
    if (count === undefined) throw new UsageError('topics add-partitions: --count N is required');
    const assign = ctx.string('assign');
    const assignments = assign?.split(':').map((p) =>
      p.split(',').map((id) => {
        if (!/^\d+$/.test(id))
          throw new UsageError(`--assign expects broker ids like 1,2:2,3, got ${JSON.stringify(assign)}`);
        return Number(id);
      }),
    );
    const validateOnly = ctx.flag('validate-only');
    const created = await ctx
      .client()
      .admin.createPartitions([{ topic: ctx.positionals[0], count, assignments }], { validateOnly });
    if (ctx.json) ctx.printJson(created);
    else
      for (const c of created)
        ctx.out(`${validateOnly ? 'would raise' : 'raised'} ${c.topic} to ${c.count} partitions`);
    return ExitCode.OK;
  },
};
