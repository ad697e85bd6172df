import {
  type AclOperation,
  type AclPatternType,
  type AclPermission,
  type AclResourceType,
  namesOf,
  OPERATION,
  PATTERN_TYPE,
  PERMISSION,
  RESOURCE_TYPE,
} from '../../admin/acl-codes.js';
import type { AclBinding, AclFilter } from '../../admin/acls.js';
import type { Command, CommandContext } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { plural, table } from '../format.js';

/**
 * `tidemark acls list|create|delete`: the cluster's access-control lists, as `kafka-acls` manages them. Names
 * of resource types, pattern types, operations and permissions are Kafka's (any case); `--json` prints what
 * the admin API returned.
 */

const FILTER_OPTIONS = {
  'resource-type': { type: 'string' },
  'resource-name': { type: 'string' },
  'pattern-type': { type: 'string' },
  principal: { type: 'string' },
  host: { type: 'string' },
  operation: { type: 'string', multiple: true },
  permission: { type: 'string' },
} as const;

const FILTER_HELP = `  --resource-type T    ${namesOf(RESOURCE_TYPE).join(', ')}
  --resource-name N    e.g. a topic name; kafka-cluster for the cluster; * for every resource of the type
  --pattern-type P     ${namesOf(PATTERN_TYPE).join(', ')}
  --principal P        e.g. User:alice, User:* for everyone
  --host H             * for any host
  --operation O        ${namesOf(OPERATION).join(', ')}
  --permission P       ALLOW or DENY`;

function enumValue<N extends string>(
  ctx: CommandContext,
  flag: string,
  names: readonly N[],
  raw = ctx.string(flag),
): N | undefined {
  if (raw === undefined) return undefined;
  const name = raw.trim().toUpperCase().replaceAll('-', '_') as N;
  if (!names.includes(name))
    throw new UsageError(`--${flag} expects one of ${names.join(', ')}, got ${JSON.stringify(raw)}`);
  return name;
}

/** The filter the flags describe; `operations` may hold several (one filter each). */
function filtersOf(ctx: CommandContext): AclFilter[] {
  const base: AclFilter = {
    resourceType: enumValue<AclResourceType>(ctx, 'resource-type', namesOf(RESOURCE_TYPE)),
    resourceName: ctx.string('resource-name'),
    patternType: enumValue<AclPatternType>(ctx, 'pattern-type', namesOf(PATTERN_TYPE)),
    principal: ctx.string('principal'),
    host: ctx.string('host'),
    permission: enumValue<AclPermission>(ctx, 'permission', namesOf(PERMISSION)),
  };
  const operations = ctx
    .strings('operation')
    .map((o) => enumValue<AclOperation>(ctx, 'operation', namesOf(OPERATION), o));
  const filters = operations.length === 0 ? [base] : operations.map((operation) => ({ ...base, operation }));
  // Leave out what was not given, so --json of the request stays as small as the flags.
  return filters.map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as AclFilter);
}

function printBindings(ctx: CommandContext, bindings: readonly AclBinding[]): void {
  const rows = bindings.map((b) => [
    b.resourceType,
    b.resourceName,
    b.patternType,
    b.principal,
    b.host,
    b.operation,
    b.permission,
  ]);
  const headers = ['RESOURCE-TYPE', 'RESOURCE-NAME', 'PATTERN', 'PRINCIPAL', 'HOST', 'OPERATION', 'PERMISSION'];
  if (rows.length > 0) ctx.out(table(headers, rows, { header: ctx.colours.bold }));
}

export const aclsListCommand: Command = {
  name: 'acls list',
  summary: 'access-control lists (all, or those matching a filter)',
  help: `Usage: tidemark acls list [filter flags]

The ACL bindings matching the filter; a flag left out matches anything.

${FILTER_HELP}`,
  options: FILTER_OPTIONS,
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const filters = filtersOf(ctx);
    const client = ctx.client();
    const found = (await Promise.all(filters.map((f) => client.acls.describeAcls(f)))).flat();
    if (ctx.json) ctx.printJson(found);
    else {
      printBindings(ctx, found);
      ctx.note(plural(found.length, 'ACL binding'));
    }
    return ExitCode.OK;
  },
};

export const aclsCreateCommand: Command = {
  name: 'acls create',
  summary: 'add ACL bindings',
  help: `Usage: tidemark acls create --resource-type T --resource-name N --principal P --operation O... [flags]

Adds one binding per --operation. The pattern type defaults to LITERAL, the host to *, the permission to ALLOW.

${FILTER_HELP}`,
  options: FILTER_OPTIONS,
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const [first, ...more] = filtersOf(ctx);
    for (const flag of ['resource-type', 'resource-name', 'principal', 'operation']) {
      if (ctx.values[flag] === undefined) throw new UsageError(`acls create needs --${flag}`);
    }
    const bindings: AclBinding[] = [first, ...more].map((f) => ({
      resourceType: f.resourceType!,
      resourceName: f.resourceName!,
      patternType: f.patternType ?? 'LITERAL',
      principal: f.principal!,
      host: f.host ?? '*',
      operation: f.operation!,
      permission: f.permission ?? 'ALLOW',
    }));
    const created = await ctx.client().acls.createAcls(bindings);
    if (ctx.json) ctx.printJson(created);
    else {
      printBindings(ctx, created);
      ctx.note(`created ${plural(created.length, 'ACL binding')}`);
    }
    return ExitCode.OK;
  },
};

export const aclsDeleteCommand: Command = {
  name: 'acls delete',
  summary: 'remove the ACL bindings matching a filter',
  help: `Usage: tidemark acls delete [filter flags]

Removes every binding the filter matches (one filter per --operation) and prints them. At least one filter
flag is needed, so that a bare command cannot remove every ACL.

${FILTER_HELP}`,
  options: FILTER_OPTIONS,
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    if (Object.keys(FILTER_OPTIONS).every((flag) => ctx.values[flag] === undefined)) {
      throw new UsageError('acls delete needs at least one filter flag (e.g. --principal or --resource-name)');
    }
    const deleted = await ctx.client().acls.deleteAcls(filtersOf(ctx));
    if (ctx.json) ctx.printJson(deleted);
    else {
      printBindings(ctx, deleted);
      ctx.note(`deleted ${plural(deleted.length, 'ACL binding')}`);
    }
    return ExitCode.OK;
  },
};
