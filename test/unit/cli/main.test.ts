import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { GroupNotEmptyError } from '../../../src/admin/group-errors.js';
import { ExitCode, exitCodeOf, NotFoundError, UsageError } from '../../../src/cli/errors.js';
import { COMMANDS, resolveCommand } from '../../../src/cli/main.js';
import { CallTimeoutError } from '../../../src/cluster/deadline.js';
import { ConnectionError } from '../../../src/network/errors.js';
import { AuthenticationError } from '../../../src/network/security/errors.js';
import { runCli } from './capture.js';

/** Nothing listens here: any test that reached for the cluster would fail with exit 4. */
const NOWHERE = { TIDEMARK_BOOTSTRAP: '127.0.0.1:1' };

describe('help', () => {
  it('prints the command list and exit codes for --help and help', async () => {
    for (const argv of [['--help'], ['help'], ['-h']]) {
      const r = await runCli(argv);
      expect(r.code).toBe(0);
      for (const c of COMMANDS) expect(r.stdout).toContain(c.name);
      expect(r.stdout).toContain('Exit codes:');
      expect(r.stdout).toMatch(/3\s+not found/);
    }
  });

  it('documents every command and its flags under --help, exit 0, without touching the cluster', async () => {
    for (const c of COMMANDS) {
      const r = await runCli([...c.name.split(' '), '--help'], { env: NOWHERE });
      expect(r.code, c.name).toBe(0);
      expect(r.stdout).toContain(`Usage: tidemark ${c.name}`);
      expect(r.stdout).toContain('--bootstrap');
      expect(r.stdout).toContain('Exit codes:');
      for (const flag of Object.keys(c.options)) expect(r.stdout, `${c.name} --${flag}`).toContain(`--${flag}`);
      expect(r.stderr).toBe('');
    }
  });

  it('lists the subcommands of a family', async () => {
    const r = await runCli(['topics', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('topics create');
  });
});

describe('wrong arguments: one line on stderr, exit 2', () => {
  const cases: [string[], RegExp][] = [
    [[], /Usage: tidemark/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['offsets'], /offsets needs a subcommand/],
    [['topics', 'rename'], /topics has no subcommand "rename"/],
    [['describe'], /describe: missing <group>/],
    [['describe', 'a', 'b'], /unexpected argument "b"/],
    [['groups', '--bogus'], /groups: Unknown option '--bogus'/],
    [['offsets', 'reset', 'g', '--topic', 't'], /exactly one of --to and --shift/],
    [['offsets', 'reset', 'g', '--topic', 't', '--to', 'yesterday'], /--to expects earliest, latest/],
    [['offsets', 'reset', 'g', '--topic', 't', '--shift', '1.5'], /--shift expects an integer/],
    [['offsets', 'reset', 'g', '--to', 'earliest'], /--topic T or --all-topics/],
    [['offsets', 'reset', 'g', '--topic', 't:x', '--to', 'earliest'], /"x" is not a partition number/],
    [['offsets', 'delete', 'g'], /--topic T/],
    [['offsets', 'show'], /--dir is required/],
    [['topics', 'create', 't', '--partitions', 'many'], /--partitions expects an integer >= 1/],
    [['topics', 'create', 't', '--config', 'novalue'], /--config expects key=value/],
    [['produce'], /--topic is required/],
    [['groups', '--timeout', 'soon'], /--timeout expects an integer/],
    [['groups', '--sasl-mechanism', 'GSSAPI', '--sasl-username', 'u'], /--sasl-mechanism expects one of PLAIN/],
    [['groups', '--sasl-mechanism', 'PLAIN', '--sasl-username', 'u'], /SASL needs --sasl-username and --sasl-password/],
    [['groups', '--tls-cert', 'package.json'], /--tls-cert and --tls-key go together/],
  ];
  for (const [argv, message] of cases) {
    it(`tidemark ${argv.join(' ')}`, async () => {
      const r = await runCli(argv, { env: NOWHERE });
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(message);
      // A family without (a known) subcommand adds its list of subcommands after the error line.
      const family = ['offsets', 'topics'].includes(argv[0]) && argv.length <= 2;
      if (argv.length > 0 && !family) expect(r.stderr.trim().split('\n')).toHaveLength(1);
      if (argv.length > 0) expect(r.stderr).toMatch(/^tidemark: /);
      expect(r.stdout).toBe('');
    });
  }

  it('needs brokers: --bootstrap or TIDEMARK_BOOTSTRAP', async () => {
    const r = await runCli(['groups']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tidemark: no brokers given: pass --bootstrap host:port or set TIDEMARK_BOOTSTRAP\n');
  });

  it('shows the stack only with --debug', async () => {
    const plain = await runCli(['groups']);
    expect(plain.stderr).not.toContain('    at ');
    const debug = await runCli(['groups', '--debug']);
    expect(debug.stderr).toContain('    at ');
  });
});

describe('resolveCommand', () => {
  it('finds the command words around global flags and leaves the rest', () => {
    const r = resolveCommand(['-b', 'h:1', 'offsets', '--json', 'reset', 'g', '--shift', '-2']);
    expect(r.command?.name).toBe('offsets reset');
    expect(r.rest).toEqual(['-b', 'h:1', '--json', 'g', '--shift', '-2']);
  });

  it('takes --shift -2 as a value, not a flag', async () => {
    const r = await runCli(['offsets', 'reset', 'g', '--topic', 't', '--shift', '-2', '--to', 'latest']);
    expect(r.stderr).toContain('exactly one of --to and --shift');
  });
});

describe('exit codes', () => {
  it('maps errors to the documented codes', () => {
    expect(exitCodeOf(new UsageError('x'))).toBe(2);
    expect(exitCodeOf(new NotFoundError('x'))).toBe(3);
    expect(exitCodeOf(kafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION))).toBe(3);
    expect(exitCodeOf(kafkaError(ErrorCode.GROUP_ID_NOT_FOUND))).toBe(3);
    expect(exitCodeOf(new CallTimeoutError('ListGroups', 100))).toBe(4);
    expect(exitCodeOf(new GroupNotEmptyError('g', 'Stable', 1))).toBe(5);
    expect(exitCodeOf(kafkaError(ErrorCode.TOPIC_ALREADY_EXISTS))).toBe(5);
    expect(exitCodeOf(new Error('boom'))).toBe(1);
    const refused = new AuthenticationError('PLAIN', 'credentials', 'the broker refused the credentials');
    const wrapped = new ConnectionError('no bootstrap broker answered', undefined, {
      cause: new AggregateError([refused]),
    });
    expect(exitCodeOf(wrapped)).toBe(6);
  });
});

describe('offsets show without a broker', () => {
  it('exits 3 for a missing directory', async () => {
    const r = await runCli(['offsets', 'show', '--dir', '/nonexistent/offsets'], { env: NOWHERE });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^tidemark: no offsets directory .*\n$/);
  });

  it('reports a corrupt gtoffset without a backup as corrupt (exit 1 with --check)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-cli-'));
    await mkdir(path.join(dir, 'g', 'orders'), { recursive: true });
    await writeFile(path.join(dir, 'g', 'orders', 'gtoffset'), 'tidemark-gtoffset 1\ngarbage\n');
    const r = await runCli(['offsets', 'show', '--dir', dir, '--json', '--check'], { env: NOWHERE });
    expect(r.code).toBe(1);
    const rows = JSON.parse(r.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('corrupt');
    expect(rows[0].note).toContain('gtoffset');
  });

  it('exits 3 when the group has no files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-cli-'));
    const r = await runCli(['offsets', 'show', '--dir', dir, '--group', 'x'], { env: NOWHERE });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no gtoffset files of group "x"');
  });
});

describe('consume arguments', () => {
  it('checks its flags before reaching for the cluster', async () => {
    for (const [argv, message] of [
      [['consume'], '--topic is required'],
      [['consume', '-t', 't', '--offsets-dir', 'd'], '--offsets-dir needs --group'],
      [['consume', '-t', 't', '--format', 'xml'], '--format expects json, value or raw'],
      [['consume', '-t', 't', '--from', 'soon'], '--from expects earliest, latest'],
      [['consume', '-t', 't', '-g', 'g', '--partition', '0'], '--partition needs --offsets-dir or no --group'],
    ] as const) {
      const r = await runCli([...argv], { env: NOWHERE });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
