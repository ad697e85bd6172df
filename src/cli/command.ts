import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { Client, type ClientConfig } from '../client.js';
import { NotFoundError, UsageError } from './errors.js';
import { type Colours, colours, toJson } from './format.js';
import { type CliIO, useColour } from './io.js';
import { checkBootstrap } from './reachability.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

/** Flags every command takes. */
export const GLOBAL_OPTIONS = {
  bootstrap: { type: 'string', short: 'b' },
  'client-id': { type: 'string' },
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
  'sasl-mechanism': { type: 'string' },
  'sasl-username': { type: 'string' },
  'sasl-password': { type: 'string' },
  tls: { type: 'boolean' },
  'tls-ca': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'tls-passphrase': { type: 'string' },
  'tls-servername': { type: 'string' },
  'tls-insecure': { type: 'boolean' },
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpec;

export const GLOBAL_HELP = `Connection and output flags (every command):
  -b, --bootstrap host:port[,host:port]  brokers to start from (default: $TIDEMARK_BOOTSTRAP)
      --client-id id           client id sent with every request (default: tidemark-cli)
      --timeout ms             how long each call may take (default: 30000)
      --connect-timeout ms     how long opening a connection may take (default: 10000)
      --sasl-mechanism M       PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512
      --sasl-username U        SASL user
      --sasl-password P        SASL password (better: $TIDEMARK_SASL_PASSWORD, kept out of ps)
      --tls                    connect with TLS (implied by every --tls-* flag)
      --tls-ca FILE            PEM file of the CAs to trust (default: Node's)
      --tls-cert FILE          PEM client certificate, with --tls-key FILE (and --tls-passphrase)
      --tls-servername NAME    the name to check the broker's certificate against
      --tls-insecure           do not verify the broker's certificate
      --json                   machine-readable JSON on stdout
      --debug                  print the stack of an error
  -h, --help                   this help`;

export interface Command {
  /** e.g. `describe` or `offsets reset`. */
  name: string;
  summary: string;
  /** Usage line(s) and command-specific flags, without the global part. */
  help: string;
  options: OptionSpec;
  /** Positional arguments: exactly `min`..`max`, named in errors. */
  positionals: { min: number; max: number; names: string };
  run(ctx: CommandContext): Promise<number>;
}

/** What a running command gets: its parsed arguments, output and a lazily connected client. */
export class CommandContext {
  readonly json: boolean;
  readonly colours: Colours;
  private connected: Client | undefined;
  /** Rejects as soon as no bootstrap address can be reached (see reachability.ts); never resolves. */
  readonly unreachable: Promise<never>;
  private reportUnreachable: (err: unknown) => void = () => {};

  constructor(
    readonly io: CliIO,
    readonly command: Command,
    readonly values: Values,
    readonly positionals: string[],
  ) {
    this.json = values.json === true;
    this.colours = colours(useColour(io));
    this.unreachable = new Promise<never>((_, reject) => {
      this.reportUnreachable = reject;
    });
    this.unreachable.catch(() => {}); // observed by main's race; unobserved when the command never connects
  }

  /** The client, created on first use from the connection flags; its bootstrap addresses are checked at once. */
  client(): Client {
    if (this.connected === undefined) {
      const config = this.clientConfig();
      this.connected = new Client(config);
      const bootstrap = Array.isArray(config.bootstrap) ? config.bootstrap.join(',') : String(config.bootstrap);
      checkBootstrap(bootstrap, config.connectTimeoutMs ?? 10_000).catch(this.reportUnreachable);
    }
    return this.connected;
  }

  clientConfig(): ClientConfig {
    const bootstrap = this.string('bootstrap') ?? this.io.env.TIDEMARK_BOOTSTRAP;
    if (bootstrap === undefined || bootstrap.trim() === '') {
      throw new UsageError('no brokers given: pass --bootstrap host:port or set TIDEMARK_BOOTSTRAP');
    }
    const config: ClientConfig = { bootstrap, clientId: this.string('client-id') ?? 'tidemark-cli' };
    const timeout = this.integer('timeout', 1);
    if (timeout !== undefined) config.requestTimeoutMs = timeout;
    const connect = this.integer('connect-timeout', 1);
    if (connect !== undefined) config.connectTimeoutMs = connect;
    return { ...config, ...securityConfig(this) };
  }

  async close(): Promise<void> {
    await this.connected?.close();
  }

  string(name: string): string | undefined {
    const v = this.values[name];
    return typeof v === 'string' ? v : undefined;
  }

  strings(name: string): string[] {
    const v = this.values[name];
    return Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : [];
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  /** An integer flag, checked. */
  integer(name: string, min = 0): number | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min) {
      throw new UsageError(`--${name} expects an integer >= ${min}, got ${JSON.stringify(raw)}`);
    }
    return n;
  }

  out(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Informational lines go to stderr, so stdout stays data. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  printJson(value: unknown): void {
    this.out(toJson(value));
  }
}

/** Parses a command's arguments strictly; every problem is a UsageError naming the command. */
export function parseCommandArgs(command: Command, args: string[]): { values: Values; positionals: string[] } {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: joinNegativeNumbers(args, command.options),
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] };
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional.*$/s, '');
    throw new UsageError(`${command.name}: ${message} (see tidemark ${command.name} --help)`);
  }
  if (parsed.values.help === true) return parsed;
  const { min, max, names } = command.positionals;
  const n = parsed.positionals.length;
  if (n < min || n > max) {
    const what = n < min ? `missing ${names}` : `unexpected argument ${JSON.stringify(parsed.positionals[max])}`;
    throw new UsageError(`${command.name}: ${what} (see tidemark ${command.name} --help)`);
  }
  return parsed;
}

/** `--shift -3` as `--shift=-3`: parseArgs would take `-3` for a flag. */
function joinNegativeNumbers(args: string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i].startsWith('--') ? args[i].slice(2) : undefined;
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d+$/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i++;
    } else out.push(args[i]);
  }
  return out;
}

const SASL_MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'];

/** The `tls` and `sasl` client options the --tls-* and --sasl-* flags ask for. */
function securityConfig(ctx: CommandContext): Pick<ClientConfig, 'tls' | 'sasl'> {
  const result: Pick<ClientConfig, 'tls' | 'sasl'> = {};
  const mechanism = ctx.string('sasl-mechanism')?.toUpperCase();
  const username = ctx.string('sasl-username');
  const password = ctx.string('sasl-password') ?? ctx.io.env.TIDEMARK_SASL_PASSWORD;
  if (mechanism !== undefined || username !== undefined) {
    if (mechanism === undefined || !SASL_MECHANISMS.includes(mechanism)) {
      throw new UsageError(`--sasl-mechanism expects one of ${SASL_MECHANISMS.join(', ')}`);
    }
    if (username === undefined || password === undefined || password === '') {
      throw new UsageError('SASL needs --sasl-username and --sasl-password (or $TIDEMARK_SASL_PASSWORD)');
    }
    result.sasl = { mechanism: mechanism as 'PLAIN', username, password };
  }
  const pem = (flag: string) => {
    const file = ctx.string(flag);
    if (file === undefined) return undefined;
    try {
      return readFileSync(path.resolve(ctx.io.cwd, file), 'utf8');
    } catch (err) {
      throw new NotFoundError(`--${flag}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? err})`);
    }
  };
  const tlsFlags = Object.keys(ctx.values).filter((k) => k.startsWith('tls-'));
  if (ctx.flag('tls') || tlsFlags.length > 0) {
    const tls: Exclude<ClientConfig['tls'], boolean | undefined> = {};
    const ca = pem('tls-ca');
    const cert = pem('tls-cert');
    const key = pem('tls-key');
    if ((cert === undefined) !== (key === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
    if (ca !== undefined) tls.ca = ca;
    if (cert !== undefined && key !== undefined) Object.assign(tls, { cert, key });
    const passphrase = ctx.string('tls-passphrase');
    if (passphrase !== undefined) tls.passphrase = passphrase;
    const servername = ctx.string('tls-servername');
    if (servername !== undefined) tls.servername = servername;
    if (ctx.flag('tls-insecure')) tls.rejectUnauthorized = false;
    result.tls = tls;
  }
  return result;
}
