import { describe, expect, it } from 'vitest';
import { bootstrap } from '../../harness/context.js';
import { closedPort, runCli } from './setup.js';

/**
 * The command's first minute: with default timeouts (30 s per call), a refused port or an unknown host is
 * reported at once with exit 4 and its cause, not after the timeout under the name of an internal request.
 */
describe('tidemark against a bootstrap address that cannot work', () => {
  const commands = [
    ['groups'],
    ['describe', 'g'],
    ['topics', 'list'],
    ['configs', 'describe', '--topic', 't'],
    ['cluster', 'describe'],
  ];

  it('a refused port: exit 4 within seconds, naming ECONNREFUSED', async () => {
    const at = `127.0.0.1:${await closedPort()}`;
    for (const argv of commands) {
      const started = Date.now();
      const r = await runCli([...argv, '--bootstrap', at]);
      const took = Date.now() - started;
      expect(r.code, argv.join(' ')).toBe(4);
      expect(r.stderr).toMatch(
        new RegExp(
          `^tidemark: cannot connect to any bootstrap broker \\(${at}: connection refused \\(ECONNREFUSED\\)\\)`,
        ),
      );
      expect(r.stderr).not.toMatch(/did not complete within/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(took, argv.join(' ')).toBeLessThan(5_000);
    }
  });

  it('an unknown host: exit 4 within seconds, naming the lookup failure', async () => {
    const started = Date.now();
    // .invalid never resolves (RFC 6761).
    const r = await runCli(['groups', '--bootstrap', 'no-such-broker.invalid:9092']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /^tidemark: cannot connect to any bootstrap broker \(no-such-broker\.invalid:9092: (unknown host \(ENOTFOUND\)|name resolution failed \(EAI_AGAIN\))\)/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('one refused address among working ones does not stop the command', async () => {
    const at = `127.0.0.1:${await closedPort()},${bootstrap()}`;
    const r = await runCli(['topics', 'list', '--json', '--bootstrap', at]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });
});
