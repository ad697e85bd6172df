import { type Command, CommandContext, GLOBAL_HELP, GLOBAL_OPTIONS, parseCommandArgs } from './command.js';
import { aclsCreateCommand, aclsDeleteCommand, aclsListCommand } from './commands/acls.js';
import { clusterDescribeCommand, clusterElectLeadersCommand, clusterLogDirsCommand } from './commands/cluster.js';
import { configsAlterCommand, configsDescribeCommand } from './commands/configs.js';
import { conformanceCommand } from './commands/conformance.js';
import { consumeCommand } from './commands/consume.js';
import { describeCommand, groupsCommand } from './commands/groups.js';
import { deleteCommand, exportCommand, importCommand, resetCommand } from './commands/offsets.js';
import { showCommand } from './commands/offsets-show.js';
import { topicsAddPartitionsCommand } from './commands/partitions.js';
import { produceCommand } from './commands/produce.js';
import { quotasCommand } from './commands/quotas.js';
import { reassignCancelCommand, reassignListCommand, reassignStartCommand } from './commands/reassign.js';
import { recordsDeleteCommand } from './commands/records.js';
import {
  topicsCreateCommand,
  topicsDeleteCommand,
  topicsDescribeCommand,
  topicsListCommand,
} from './commands/topics.js';
import { producersCommand, transactionsDescribeCommand, transactionsListCommand } from './commands/transactions.js';
import { usersCommand } from './commands/users.js';
import { EXIT_CODES_HELP, ExitCode, errorLine, errorReport, exitCodeOf, UsageError } from './errors.js';
import { type CliIO, processIO } from './io.js';
import { packageVersion } from './version.js';

export const COMMANDS: readonly Command[] = [
  groupsCommand,
  describeCommand,
  resetCommand,
  exportCommand,
  importCommand,
  deleteCommand,
  showCommand,
  topicsListCommand,
  topicsCreateCommand,
  topicsDeleteCommand,
  topicsDescribeCommand,
  topicsAddPartitionsCommand,
  configsDescribeCommand,
  configsAlterCommand,
  recordsDeleteCommand,
  clusterDescribeCommand,
  clusterLogDirsCommand,
  clusterElectLeadersCommand,
  reassignStartCommand,
  reassignListCommand,
  reassignCancelCommand,
  consumeCommand,
  produceCommand,
  conformanceCommand,
  aclsListCommand,
  aclsCreateCommand,
  aclsDeleteCommand,
  usersCommand,
  quotasCommand,
  transactionsListCommand,
  transactionsDescribeCommand,
  producersCommand,
];

/** Commands with subcommands: `offsets reset`, `topics list`… */
const FAMILIES = new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]));

const VALUE_FLAGS = new Set(
  Object.entries(GLOBAL_OPTIONS).flatMap(([name, o]) =>
    o.type === 'string' ? [`--${name}`, ...('short' in o ? [`-${o.short}`] : [])] : [],
  ),
);

export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const list = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `Usage: tidemark <command> [flags]

Consumer groups, offsets, topics and records of an Apache Kafka cluster.

Commands:
${list}

\`tidemark <command> --help\` describes a command and its flags; \`tidemark --version\` prints the version.
With --json a failure, too, is JSON: one object on stderr, {"error": {"name", "message", "exitCode", …}}.

${GLOBAL_HELP}

Environment: TIDEMARK_BOOTSTRAP (default --bootstrap), NO_COLOR (no colour even on a terminal).

${EXIT_CODES_HELP}
`;
}

export function commandHelp(command: Command): string {
  return `${command.help}\n\n${GLOBAL_HELP}\n\n${EXIT_CODES_HELP}\n`;
}

/** The command the arguments name, and the arguments left for it. */
export function resolveCommand(argv: readonly string[]): {
  command: Command | undefined;
  rest: string[];
  words: string[];
} {
  const wordAt: number[] = [];
  for (let i = 0; i < argv.length && wordAt.length < 2; i++) {
    const token = argv[i];
    if (token === '--') break;
    if (token.startsWith('-') && token !== '-') {
      if (VALUE_FLAGS.has(token)) i++;
      continue;
    }
    wordAt.push(i);
    if (!FAMILIES.has(argv[wordAt[0]])) break;
  }
  const words = wordAt.map((i) => argv[i]);
  const rest = argv.filter((_, i) => !wordAt.includes(i));
  const command = COMMANDS.find((c) => c.name === words.join(' '));
  return { command, rest, words };
}

/**
 * Runs `tidemark <argv…>`: resolves to the exit code, which it also sets as process.exitCode. Never throws;
 * every failure is one line on stderr (with the stack under --debug), a JSON object with --json.
 */
export async function main(argv: string[], ioOverrides: Partial<CliIO> = {}): Promise<number> {
  const io: CliIO = { ...processIO(), ...ioOverrides };
  const code = await run(argv, io);
  process.exitCode = code;
  return code;
}

/** How a failure is told: one line, or with --json one JSON object; with --debug its stack too. */
interface FailureOutput {
  json: boolean;
  debug: boolean;
}

async function run(argv: string[], io: CliIO): Promise<number> {
  const output: FailureOutput = { json: argv.includes('--json'), debug: argv.includes('--debug') };
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  let ctx: CommandContext | undefined;
  try {
    const { command, rest, words } = resolveCommand(argv);
    if (command === undefined && words.length === 0 && argv.includes('--version')) {
      const version = packageVersion();
      io.stdout.write(output.json ? `${JSON.stringify({ version })}\n` : `${version}\n`);
      return ExitCode.OK;
    }
    if (command === undefined) return usageOrHelp(io, words, wantsHelp, output);
    const { values, positionals } = parseCommandArgs(command, rest);
    if (values.help === true) {
      io.stdout.write(commandHelp(command));
      return ExitCode.OK;
    }
    ctx = new CommandContext(io, command, values, positionals);
    const work = command.run(ctx);
    work.catch(() => {}); // when the bootstrap check settles first, the command's own failure comes later
    return await Promise.race([work, ctx.unreachable]);
  } catch (err) {
    const code = exitCodeOf(err);
    let hint: string | undefined;
    if (code === ExitCode.UNREACHABLE) {
      const bootstrap = ctx?.string('bootstrap') ?? io.env.TIDEMARK_BOOTSTRAP;
      hint = `is the cluster at ${bootstrap} reachable? --timeout and --connect-timeout set the limits`;
    }
    return reportFailure(io, err, code, output, hint);
  } finally {
    await ctx?.close().catch(() => {});
  }
}

function reportFailure(io: CliIO, err: unknown, code: number, output: FailureOutput, hint?: string): number {
  const stack = output.debug ? stackOf(err) : undefined;
  if (output.json) {
    io.stderr.write(`${JSON.stringify(errorReport(err, code, { hint, stack }))}\n`);
  } else {
    io.stderr.write(`${errorLine(err, hint)}\n`);
    if (stack !== undefined) io.stderr.write(`${stack}\n`);
  }
  return code;
}

function usageOrHelp(io: CliIO, words: string[], wantsHelp: boolean, output: FailureOutput): number {
  if (words[0] === 'help' || (words.length === 0 && wantsHelp)) {
    const named = COMMANDS.find((c) => c.name === words.slice(1).join(' '));
    io.stdout.write(named === undefined ? mainHelp() : commandHelp(named));
    return ExitCode.OK;
  }
  if (words.length === 0) {
    if (output.json)
      return reportFailure(io, new UsageError('no command given (see tidemark --help)'), ExitCode.USAGE, output);
    io.stderr.write(mainHelp());
    return ExitCode.USAGE;
  }
  if (FAMILIES.has(words[0])) {
    const subs = COMMANDS.filter((c) => c.name.startsWith(`${words[0]} `));
    const list = subs.map((c) => `  ${c.name.padEnd(16)}  ${c.summary}`).join('\n');
    const text = `Usage: tidemark ${words[0]} <${subs.map((c) => c.name.split(' ')[1]).join('|')}> [flags]\n\n${list}\n`;
    if (wantsHelp && words.length === 1) {
      io.stdout.write(text);
      return ExitCode.OK;
    }
    const what = words[1] === undefined ? 'needs a subcommand' : `has no subcommand ${JSON.stringify(words[1])}`;
    const code = reportFailure(io, new UsageError(`${words[0]} ${what}`), ExitCode.USAGE, output);
    if (!output.json) io.stderr.write(text);
    return code;
  }
  return reportFailure(
    io,
    new UsageError(`unknown command ${JSON.stringify(words[0])} (see tidemark --help)`),
    ExitCode.USAGE,
    output,
  );
}

function stackOf(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && depth < 5; depth++) {
    parts.push(depth === 0 ? String((e as Error)?.stack ?? e) : `Caused by: ${String((e as Error)?.stack ?? e)}`);
    e = (e as Error)?.cause;
  }
  return parts.join('\n');
}
