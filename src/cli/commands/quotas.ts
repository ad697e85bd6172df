import type { QuotaAlteration, QuotaEntity, QuotaFilterComponent } from '../../admin/quotas.js';
import { quotaEntityLabel } from '../../admin/quotas.js';
import type { Command, CommandContext } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { table } from '../format.js';

/**
 * `tidemark quotas`: client quotas per user, client id and ip, as `kafka-configs --entity-type users|clients|ips`
 * shows and sets them. Without --set or --remove it describes; with them it alters the one entity the flags name.
 */

const ENTITY_FLAGS = [
  ['user', 'user'],
  // Not --client-id: that is every command's flag for the client id tidemark itself sends.
  ['client', 'client-id'],
  ['ip', 'ip'],
] as const;

/** Each entity type: --T NAME (exact), --T-default (the default entity), --T-any (any, when describing). */
function componentsOf(ctx: CommandContext): QuotaFilterComponent[] {
  const components: QuotaFilterComponent[] = [];
  for (const [flag, entityType] of ENTITY_FLAGS) {
    const name = ctx.string(flag);
    const given = [name !== undefined, ctx.flag(`${flag}-default`), ctx.flag(`${flag}-any`)].filter(Boolean).length;
    if (given > 1) throw new UsageError(`--${flag}, --${flag}-default and --${flag}-any exclude each other`);
    if (name !== undefined) components.push({ entityType, match: 'exact', name });
    else if (ctx.flag(`${flag}-default`)) components.push({ entityType, match: 'default' });
    else if (ctx.flag(`${flag}-any`)) components.push({ entityType, match: 'any' });
  }
  return components;
}

function alterationOf(ctx: CommandContext, components: QuotaFilterComponent[]): QuotaAlteration {
  if (components.length === 0 || components.some((c) => c.match === 'any')) {
    throw new UsageError('--set and --remove need the entity named exactly (--user U, --client-default, …)');
  }
  const entity: QuotaEntity = Object.fromEntries(
    components.map((c) => [c.entityType, c.match === 'exact' ? c.name : null]),
  );
  const set: Record<string, number> = {};
  for (const entry of ctx.strings('set')) {
    const eq = entry.indexOf('=');
    const value = Number(entry.slice(eq + 1));
    if (eq <= 0 || entry.slice(eq + 1).trim() === '' || !Number.isFinite(value)) {
      throw new UsageError(`--set expects key=number, got ${JSON.stringify(entry)}`);
    }
    set[entry.slice(0, eq)] = value;
  }
  return { entity, set, remove: ctx.strings('remove') };
}

export const quotasCommand: Command = {
  name: 'quotas',
  summary: 'client quotas per user, client id and ip: describe, set, remove',
  help: `Usage: tidemark quotas [entity flags] [--strict]
       tidemark quotas <entity flags> --set key=value... --remove key... [--validate-only]

Without --set or --remove: the quotas of the entities the flags match (every entity with quotas when
none are given). With them: alters the one entity the flags name.

  --user NAME            the user NAME
  --user-default         the default user
  --user-any             any user (describing only)
  --client NAME          the client id NAME
  --client-default       the default client id
  --client-any           any client id (describing only)
  --ip ADDRESS           the ip ADDRESS
  --ip-default           the default ip
  --ip-any               any ip (describing only)
  --strict               only entities with no other component than those given
  --set key=value        set a quota, e.g. producer_byte_rate=1048576; repeatable
  --remove key           remove a quota; repeatable
  --validate-only        only check the change with the broker`,
  options: {
    user: { type: 'string' },
    'user-default': { type: 'boolean' },
    'user-any': { type: 'boolean' },
    client: { type: 'string' },
    'client-default': { type: 'boolean' },
    'client-any': { type: 'boolean' },
    ip: { type: 'string' },
    'ip-default': { type: 'boolean' },
    'ip-any': { type: 'boolean' },
    strict: { type: 'boolean' },
    set: { type: 'string', multiple: true },
    remove: { type: 'string', multiple: true },
    'validate-only': { type: 'boolean' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const components = componentsOf(ctx);
    if (ctx.strings('set').length > 0 || ctx.strings('remove').length > 0) {
      const alteration = alterationOf(ctx, components);
      const altered = await ctx.client().quotas.alter([alteration], { validateOnly: ctx.flag('validate-only') });
      if (ctx.json) ctx.printJson(altered);
      else
        ctx.out(
          `${ctx.flag('validate-only') ? 'validated' : 'altered'} quotas of ${altered.map(quotaEntityLabel).join('; ')}`,
        );
      return ExitCode.OK;
    }
    const entries = await ctx.client().quotas.describe({ components, strict: ctx.flag('strict') });
    if (ctx.json) {
      ctx.printJson(entries);
      return ExitCode.OK;
    }
    const rows = entries.flatMap((e) =>
      Object.entries(e.values)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, value]) => [quotaEntityLabel(e.entity), key, value]),
    );
    if (rows.length > 0) ctx.out(table(['ENTITY', 'QUOTA', 'VALUE'], rows, { right: [2], header: ctx.colours.bold }));
    return ExitCode.OK;
  },
};
