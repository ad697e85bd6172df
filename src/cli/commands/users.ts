import type { ScramMechanismName } from '../../admin/scram.js';
import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { table } from '../format.js';

/**
 * `tidemark users`: users' SCRAM credentials, as `kafka-configs --entity-type users` shows and sets them:
 * mechanisms and iteration counts (never secrets), upserting a password, deleting a mechanism.
 */

const MECHANISMS: readonly ScramMechanismName[] = ['SCRAM-SHA-256', 'SCRAM-SHA-512'];

export const usersCommand: Command = {
  name: 'users',
  summary: "users' SCRAM credentials: list, set a password, delete",
  help: `Usage: tidemark users [<user>...]
       tidemark users --set <user> --mechanism M [--iterations N]   (password from $TIDEMARK_USER_PASSWORD)
       tidemark users --delete <user> --mechanism M

Without --set or --delete: the SCRAM mechanisms and iterations of the named users (all users with
credentials when none are named).

  --set USER          add or replace USER's credential for --mechanism
  --delete USER       remove USER's credential for --mechanism
  --mechanism M       ${MECHANISMS.join(' or ')}
  --iterations N      PBKDF2 iterations (default 4096, the least Kafka accepts)`,
  options: {
    set: { type: 'string' },
    delete: { type: 'string' },
    mechanism: { type: 'string' },
    iterations: { type: 'string' },
  },
  positionals: { min: 0, max: 1000, names: '<user>' },
  async run(ctx) {
    const set = ctx.string('set');
    const remove = ctx.string('delete');
    if (set !== undefined || remove !== undefined) {
      if (set !== undefined && remove !== undefined) throw new UsageError('--set and --delete exclude each other');
      const mechanism = ctx.string('mechanism')?.toUpperCase() as ScramMechanismName | undefined;
      if (mechanism === undefined || !MECHANISMS.includes(mechanism)) {
        throw new UsageError(`--mechanism expects ${MECHANISMS.join(' or ')}`);
      }
      let altered: string[];
      if (set !== undefined) {
        const password = ctx.io.env.TIDEMARK_USER_PASSWORD;
        if (password === undefined || password === '') {
          throw new UsageError('--set reads the password from $TIDEMARK_USER_PASSWORD (kept out of ps)');
        }
        const iterations = ctx.integer('iterations', 1);
        altered = await ctx.client().scramCredentials.alter([{ user: set, mechanism, password, iterations }]);
      } else {
        altered = await ctx.client().scramCredentials.alter([{ user: remove!, mechanism, delete: true }]);
      }
      if (ctx.json) ctx.printJson(altered);
      else ctx.out(`${set !== undefined ? 'set' : 'deleted'} ${mechanism} credential of ${altered.join(', ')}`);
      return ExitCode.OK;
    }
    const users = await ctx.client().scramCredentials.describe(ctx.positionals);
    if (ctx.json) {
      ctx.printJson(users);
      return ExitCode.OK;
    }
    const rows = users.flatMap((u) => u.credentials.map((c) => [u.user, c.mechanism, c.iterations]));
    if (rows.length > 0)
      ctx.out(table(['USER', 'MECHANISM', 'ITERATIONS'], rows, { right: [2], header: ctx.colours.bold }));
    return ExitCode.OK;
  },
};
