import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './capture.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

describe('bench', () => {
  it('runs bench/run.ts with tsx, passing the flags and --bootstrap as KAFKA_BOOTSTRAP, and exits with its code', async () => {
    // A stand-in source tree: the real benchmark needs a broker; this one reports what it was given.
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-bench-'));
    await mkdir(path.join(dir, 'bench'));
    await mkdir(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    await symlink(path.join(repo, 'node_modules', '.bin', 'tsx'), path.join(dir, 'node_modules', '.bin', 'tsx'));
    await writeFile(
      path.join(dir, 'bench', 'run.ts'),
      `console.log(JSON.stringify({ args: process.argv.slice(2), bootstrap: process.env.KAFKA_BOOTSTRAP }));
console.error('bench log line');
process.exitCode = 7;\n`,
    );
    const r = await runCli(
      ['bench', '--records', '10', '--rounds', '2', '--no-java', '--json', '--bootstrap', 'h:9092'],
      { env: { ...process.env, TIDEMARK_SOURCE_DIR: dir } },
    );
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stdout)).toEqual({
      args: ['--records', '10', '--rounds', '2', '--no-java', '--json'],
      bootstrap: 'h:9092',
    });
    expect(r.stderr).toContain('bench log line');
  }, 60_000);

  it('says clearly when the source tree is not there (exit 3)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-bench-'));
    const r = await runCli(['bench'], { env: { TIDEMARK_SOURCE_DIR: dir } });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'tidemark: the benchmark needs the tidemark source tree (bench/run.ts); run it from a git checkout with npm install\n',
    );
  });
});
