import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '../command.js';
import { ExitCode, NotFoundError } from '../errors.js';

export const benchCommand: Command = {
  name: 'bench',
  summary: 'the fetch benchmark (npm run bench) against --bootstrap or an embedded broker',
  help: `Usage: tidemark bench [--records N] [--rounds N] [--no-java]

Runs bench/run.ts of a tidemark checkout with tsx (as \`npm run bench\`): loads a workload, then measures
fetch throughput of tidemark and its peers. With --bootstrap (or $TIDEMARK_BOOTSTRAP) it uses that cluster,
otherwise the benchmark starts its own broker. Needs the source tree (bench/ is not in the npm package).

  --records N   records in the workload (default 2000000)
  --rounds N    rounds per client (default 3)
  --no-java     skip Kafka's Java consumer`,
  options: { records: { type: 'string' }, rounds: { type: 'string' }, 'no-java': { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const root = ctx.io.env.TIDEMARK_SOURCE_DIR ?? packageRoot();
    const script = root === undefined ? undefined : path.join(root, 'bench', 'run.ts');
    const tsx = root === undefined ? undefined : path.join(root, 'node_modules', '.bin', 'tsx');
    if (root === undefined || script === undefined || tsx === undefined || !existsSync(script)) {
      throw new NotFoundError(
        'the benchmark needs the tidemark source tree (bench/run.ts); run it from a git checkout with npm install',
      );
    }
    if (!existsSync(tsx)) throw new NotFoundError(`tsx is not installed in ${root}: run npm install there`);
    const args = [script];
    const records = ctx.integer('records', 1);
    const rounds = ctx.integer('rounds', 1);
    if (records !== undefined) args.push('--records', String(records));
    if (rounds !== undefined) args.push('--rounds', String(rounds));
    if (ctx.flag('no-java')) args.push('--no-java');
    if (ctx.json) args.push('--json');
    const env = { ...ctx.io.env };
    const bootstrap = ctx.string('bootstrap') ?? ctx.io.env.TIDEMARK_BOOTSTRAP;
    if (bootstrap !== undefined) env.KAFKA_BOOTSTRAP = bootstrap;
    return new Promise<number>((resolve, reject) => {
      const child = spawn(tsx, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (d: Buffer) => ctx.io.stdout.write(d.toString()));
      child.stderr.on('data', (d: Buffer) => ctx.io.stderr.write(d.toString()));
      const stop = ctx.io.onInterrupt(() => child.kill('SIGINT'));
      child.on('error', (err) => {
        stop();
        reject(err);
      });
      child.on('close', (code, signal) => {
        stop();
        resolve(signal !== null ? ExitCode.INTERRUPTED : (code ?? ExitCode.ERROR));
      });
    });
  },
};

/** The directory of tidemark's package.json, from src/cli/commands or dist/src/cli/commands. */
function packageRoot(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'tidemark') return dir;
      } catch {
        // not ours; keep looking
      }
    }
    dir = path.dirname(dir);
  }
  return undefined;
}
