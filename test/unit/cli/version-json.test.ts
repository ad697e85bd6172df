/** `tidemark --version`, and failures as JSON on stderr under --json (scripts parse them, as they parse stdout). */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/errors.js';
import { runCli } from './capture.js';

/** Nothing listens here: a command that reaches for the cluster fails with exit 4. */
const NOWHERE = { TIDEMARK_BOOTSTRAP: '127.0.0.1:1' };
const { version } = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('tidemark --version', () => {
  it("prints package.json's version, exit 0", async () => {
    const r = await runCli(['--version']);
    expect(r).toEqual({ code: ExitCode.OK, stdout: `${version}\n`, stderr: '' });
  });

  it('prints it as JSON with --json', async () => {
    const r = await runCli(['--version', '--json']);
    expect(r.code).toBe(ExitCode.OK);
    expect(JSON.parse(r.stdout)).toEqual({ version });
  });

  it('is not a flag of a command', async () => {
    const r = await runCli(['groups', '--version'], { env: NOWHERE });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain("Unknown option '--version'");
  });
});

describe('errors with --json', () => {
  const usage: [string[], RegExp][] = [
    [[], /^no command given/],
    [['frobnicate'], /^unknown command "frobnicate"/],
    [['bench'], /^unknown command "bench"/],
    [['offsets'], /^offsets needs a subcommand/],
    [['describe'], /^describe: missing <group>/],
    [['groups', '--bogus'], /Unknown option '--bogus'/],
  ];
  for (const [argv, message] of usage) {
    it(`tidemark ${[...argv, '--json'].join(' ')}: one JSON object on stderr, exit 2`, async () => {
      const r = await runCli([...argv, '--json'], { env: NOWHERE });
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stdout).toBe('');
      expect(r.stderr.endsWith('\n')).toBe(true);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      const { error } = JSON.parse(r.stderr);
      expect(error).toMatchObject({ name: 'UsageError', exitCode: ExitCode.USAGE, retriable: false });
      expect(error.message).toMatch(message);
    });
  }

  it('an unreachable broker: exit 4, the hint as a field, the stack only with --debug', async () => {
    const argv = ['groups', '--json', '--connect-timeout', '300', '--timeout', '1500'];
    const r = await runCli(argv, { env: NOWHERE });
    expect(r.code).toBe(ExitCode.UNREACHABLE);
    const { error } = JSON.parse(r.stderr);
    expect(error.exitCode).toBe(ExitCode.UNREACHABLE);
    expect(error.hint).toContain('is the cluster at 127.0.0.1:1 reachable?');
    expect(error.stack).toBeUndefined();
    const debug = await runCli([...argv, '--debug'], { env: NOWHERE });
    expect(debug.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(debug.stderr).error.stack).toContain('    at ');
  });

  it('without --json the same failure stays one plain line', async () => {
    const r = await runCli(['describe'], { env: NOWHERE });
    expect(r.stderr).toBe('tidemark: describe: missing <group> (see tidemark describe --help)\n');
  });
});
