import type { ConfigResource } from '../../admin/config-resource.js';
import type { ConfigChange } from '../../admin/configs.js';
import type { Command, CommandContext } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { table } from '../format.js';

/** `tidemark configs describe|alter`: the configs of a topic, broker, broker logger or group. */

const RESOURCE_FLAGS = {
  topic: { type: 'string', short: 't' },
  broker: { type: 'string' },
  'broker-logger': { type: 'string' },
  group: { type: 'string', short: 'g' },
} as const;

const RESOURCE_HELP = `  -t, --topic T            a topic's configs
      --broker ID          a broker's configs (--broker '' : the cluster-wide broker default)
      --broker-logger ID   a broker's log levels
  -g, --group G            a group's configs (Kafka 4.x)`;

/** The one resource the flags name; exactly one must be given. */
function resourceOf(ctx: CommandContext): ConfigResource {
  const given = (Object.keys(RESOURCE_FLAGS) as ConfigResource['type'][]).flatMap((type) => {
    const name = ctx.string(type);
    return name === undefined ? [] : [{ type, name }];
  });
  if (given.length !== 1) {
    throw new UsageError(`${ctx.command.name}: name exactly one of --topic, --broker, --broker-logger, --group`);
  }
  return given[0];
}

export const configsDescribeCommand: Command = {
  name: 'configs describe',
  summary: 'configs of a topic, broker, broker logger or group',
  help: `Usage: tidemark configs describe (--topic T | --broker ID | --broker-logger ID | --group G) [flags]

Every config with its value and where the value comes from (DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG,
DEFAULT_CONFIG…), as Kafka's AdminClient reports it. Sensitive values (passwords) are never sent by the
broker and show as "(sensitive)". --json prints the API result (client.admin.describeConfigs).

${RESOURCE_HELP}
      --name N             only this config; repeatable
      --changed            only configs not at their default
      --synonyms           also every place the value could come from, highest precedence first
      --docs               include each config's documentation (in --json)`,
  options: {
    ...RESOURCE_FLAGS,
    name: { type: 'string', multiple: true },
    changed: { type: 'boolean' },
    synonyms: { type: 'boolean' },
    docs: { type: 'boolean' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const resource = resourceOf(ctx);
    const names = ctx.strings('name');
    const [described] = await ctx.client().admin.describeConfigs([resource], {
      configNames: names.length > 0 ? names : undefined,
      includeSynonyms: ctx.flag('synonyms'),
      includeDocumentation: ctx.flag('docs'),
    });
    const configs = ctx.flag('changed') ? described.configs.filter((c) => !c.isDefault) : described.configs;
    if (ctx.json) {
      ctx.printJson({ ...described, configs });
      return ExitCode.OK;
    }
    const rows = configs.flatMap((c) => [
      [c.name, c.isSensitive ? '(sensitive)' : c.value, c.source, c.isReadOnly ? 'yes' : 'no'],
      ...(ctx.flag('synonyms') ? c.synonyms.map((s) => [`  ${s.name}`, s.value, s.source, '']) : []),
    ]);
    ctx.out(table(['NAME', 'VALUE', 'SOURCE', 'READ-ONLY'], rows, { header: ctx.colours.bold }));
    return ExitCode.OK;
  },
};

export const configsAlterCommand: Command = {
  name: 'configs alter',
  summary: 'set, delete, append to or subtract from configs',
  help: `Usage: tidemark configs alter (--topic T | --broker ID | --broker-logger ID | --group G) [changes] [--validate-only]

Changes single configs and leaves the others as they are (IncrementalAlterConfigs). An unknown config
name or an invalid value is refused by the broker with its reason (exit 5); --validate-only changes nothing.

${RESOURCE_HELP}
      --set k=v            set a config; repeatable
      --delete k           return a config to its default; repeatable
      --append k=v         add v to a list config (e.g. cleanup.policy); repeatable
      --subtract k=v       remove v from a list config; repeatable
      --validate-only      only check the change`,
  options: {
    ...RESOURCE_FLAGS,
    set: { type: 'string', multiple: true },
    delete: { type: 'string', multiple: true },
    append: { type: 'string', multiple: true },
    subtract: { type: 'string', multiple: true },
    'validate-only': { type: 'boolean' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const resource = resourceOf(ctx);
    const changes: ConfigChange[] = [
      ...ctx.strings('set').map((kv) => ({ ...keyValue('set', kv), op: 'set' as const })),
      ...ctx.strings('delete').map((name) => ({ name, op: 'delete' as const })),
      ...ctx.strings('append').map((kv) => ({ ...keyValue('append', kv), op: 'append' as const })),
      ...ctx.strings('subtract').map((kv) => ({ ...keyValue('subtract', kv), op: 'subtract' as const })),
    ];
    if (changes.length === 0)
      throw new UsageError('configs alter: no changes given (--set, --delete, --append, --subtract)');
    const validateOnly = ctx.flag('validate-only');
    const altered = await ctx.client().admin.incrementalAlterConfigs([{ resource, changes }], { validateOnly });
    if (ctx.json) ctx.printJson(altered);
    else {
      const verb = validateOnly ? 'would change' : 'changed';
      ctx.out(
        `${verb} ${changes.length} config${changes.length === 1 ? '' : 's'} of ${resource.type} ${resource.name}`,
      );
    }
    return ExitCode.OK;
  },
};

function keyValue(flag: string, entry: string): { name: string; value: string } {
  const eq = entry.indexOf('=');
  if (eq <= 0) throw new UsageError(`--${flag} expects key=value, got ${JSON.stringify(entry)}`);
  return { name: entry.slice(0, eq), value: entry.slice(eq + 1) };
}
