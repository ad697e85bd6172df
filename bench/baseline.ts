/**
 * `npm run bench -- --baseline <git ref>`: an earlier commit of tidemark, checked out in a scratch git
 * worktree under the temp directory (the shared node_modules linked in), built there with `npm run build`
 * (so a ref that does not build fails here, not halfway through a run), and run as one more client,
 * `tidemark@<short sha>`, with that commit's own bench programs. Today's main measured beside this build in
 * the same run is what the "≤ 0.5× today's main" targets compare against.
 */
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { groupRound } from './clients/group.js';
import type { BenchClient } from './clients/peers.js';
import { runNodeChild, runNodeGroup } from './clients/process.js';

const exec = promisify(execFile);

export interface Baseline {
  /** The client `tidemark@<short sha>`, id `baseline`. */
  client: BenchClient;
  /** That commit's bench/decode.ts. */
  decodeScript: string;
  /** What that decode benchmark wrote (its bench/results/decode.md), headed by the commit; undefined before it ran. */
  decodeResults(): Promise<string | undefined>;
  /** Removes the worktree and its temp directory. */
  remove(): Promise<void>;
}

/** The repository this bench belongs to (its worktree root). */
const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Resolves `ref` to a commit of this repository: its full and short sha, or a clear error. */
export async function resolveRef(ref: string, cwd = REPO): Promise<{ sha: string; short: string }> {
  try {
    const { stdout } = await exec('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd });
    const sha = stdout.trim();
    const { stdout: short } = await exec('git', ['rev-parse', '--short', sha], { cwd });
    return { sha, short: short.trim() };
  } catch {
    throw new Error(`--baseline ${ref}: not a commit of this repository`);
  }
}

export async function prepareBaseline(ref: string, log: (line: string) => void): Promise<Baseline> {
  const { sha, short } = await resolveRef(ref);
  const dir = await mkdtemp(join(tmpdir(), 'tidemark-baseline-'));
  const tree = join(dir, short);
  const remove = async () => {
    await exec('git', ['worktree', 'remove', '--force', tree], { cwd: REPO }).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    log(`baseline ${ref} = ${short}: checking out in ${tree}…`);
    await exec('git', ['worktree', 'add', '--detach', tree, sha], { cwd: REPO });
    await symlink(realpathSync(join(REPO, 'node_modules')), join(tree, 'node_modules'));
    // Its committed decode results go, so what decodeResults() finds is what this run measured.
    await rm(join(tree, 'bench/results/decode.md'), { force: true });
    log(`baseline ${short}: npm run build…`);
    const started = Date.now();
    await exec('npm', ['run', 'build'], { cwd: tree, timeout: 20 * 60_000, maxBuffer: 64 * 1024 * 1024 }).catch(
      (e: Error & { stderr?: string }) => {
        throw new Error(`--baseline ${ref} (${short}) does not build: ${(e.stderr ?? e.message).slice(-800)}`);
      },
    );
    log(`baseline ${short}: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (e) {
    await remove();
    throw e;
  }
  const fetchScript = join(tree, 'bench/clients/tidemark-fetch.ts');
  const memberScript = join(tree, 'bench/clients/tidemark-group-member.ts');
  const client: BenchClient = {
    id: 'baseline',
    name: `tidemark@${short}`,
    exact: true,
    prepare: async (ctx) =>
      existsSync(fetchScript)
        ? { available: true, runtime: `node ${ctx.node.version}, commit ${short}` }
        : { available: false, reason: `commit ${short} has no bench/clients/tidemark-fetch.ts` },
    unsupported: (w) =>
      w.groupMembers !== undefined && !existsSync(memberScript)
        ? `commit ${short} has no bench/clients/tidemark-group-member.ts`
        : undefined,
    run: (ctx, w) => runNodeChild(ctx.node, fetchScript, ctx.bootstrap, w.topic, w.records),
    runGroup: (ctx, w, members) =>
      runNodeGroup(ctx.node, memberScript, ctx.bootstrap, w.topic, groupRound(ctx.bootstrap, w), members),
  };
  const decodeResults = async () => {
    const written = await readFile(join(tree, 'bench/results/decode.md'), 'utf8').catch(() => undefined);
    return written === undefined
      ? undefined
      : `<!-- bench --baseline ${ref}: bench/decode.ts of commit ${sha}, run just before this build's (decode.md) -->\n\n${written}`;
  };
  return { client, decodeScript: join(tree, 'bench/decode.ts'), decodeResults, remove };
}
