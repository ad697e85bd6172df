/**
 * How every Node child of the bench is started: compiled, not through tsx. Each child script (a client's
 * consume loop, a group member, a produce or latency child, the decode micro-benchmark, the topic loader) is
 * bundled once per bench run with esbuild into one plain JavaScript file, and run as `node <bundle.mjs>`.
 *
 * Why: under `node --import tsx` the TypeScript loader itself costs about 100 MiB of RSS before the child
 * does any work (measured: tidemark's src through tsx 165 MiB, the built dist 67 MiB, bare node 39 MiB), and
 * tsx turns on esbuild's keepNames, which wraps classes and functions (codecs/records/buffer-view.ts tells of
 * a 10x slowdown it once caused). No user of the published package pays either. The bundle is what a user's
 * bundled application is: tidemark's own source compiled in, every npm package (crc-32, kafkajs, the
 * librdkafka binding, …) left external and loaded from node_modules as usual. Every Node client, tidemark
 * and its peers alike, runs this one way, so the comparison stays fair.
 *
 * The bundle is written under the `.tidemark/` directory (ignored by git and biome) of the repository the
 * script belongs to: a `--baseline` worktree's children are bundled from that worktree's sources and find
 * node_modules from there. A bundle lives elsewhere than its sources, so each source file's `import.meta.url`
 * is replaced by that file's own URL at build time: children that read or write files relative to
 * themselves (bench/decode.ts writes bench/results/decode.md) still find them.
 *
 * tidemark's source goes into a module of its own (esbuild's code splitting, with the repository's src/index.ts
 * as a second entry point), not into the child's module. In one bundle, the top-level code of every module is
 * one function; with tidemark's generated codecs that function is past V8's limit for optimised code (about
 * 60 KB of bytecode), so a child whose hot loop sits at its top level (bench/clients/tidemark-fetch.ts) ran that
 * loop unoptimised: an iterator object per record, 10-15 % more CPU per record (measured in
 * bench/results/regression.md). Split off, the child's top level is its own few lines, as under tsx, where every
 * module was loaded on its own.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** How the Node children run, for the results headers (every results file with Node clients says it). */
export const HOW_NODE_CHILDREN_RUN =
  'Every Node client (tidemark and its peers alike) runs compiled, as a user’s bundled application does: its program is bundled once per bench run with esbuild (tidemark’s source compiled in, npm packages external, no keepNames) and started as `node <bundle>.mjs`, not through the tsx loader (bench/child-build.ts).';

/** What a child process is started as: the bundle and, after it, the child's own arguments. */
export interface ChildCommand {
  cmd: string;
  args: string[];
}

/** Bundles by source script, built at most once per bench process. */
const bundles = new Map<string, Promise<string>>();

/** The directory holding `script`'s package.json (its repository or worktree), where its node_modules is. */
function packageRoot(script: string): string {
  for (let dir = dirname(script); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`${script}: no package.json above it`);
  }
}

/** One scratch directory per repository per bench process, removed when the process exits. */
const outDirs = new Map<string, string>();
function outDir(root: string): string {
  let dir = outDirs.get(root);
  if (dir === undefined) {
    const parent = join(root, '.tidemark');
    mkdirSync(parent, { recursive: true });
    dir = mkdtempSync(join(parent, 'bench-children-'));
    if (outDirs.size === 0) process.once('exit', removeCompiledChildren);
    outDirs.set(root, dir);
  }
  return dir;
}

/** Removes every bundle built so far (done at exit; a test worker may end without an `exit` event). */
export function removeCompiledChildren(): void {
  for (const dir of outDirs.values()) rmSync(dir, { recursive: true, force: true });
  outDirs.clear();
  bundles.clear();
}

/** `import.meta.url` in each bundled source file becomes that file's own URL (see the file comment). */
const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (file) => {
      const text = await readFile(file.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const url = JSON.stringify(pathToFileURL(file.path).href);
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

/** The path of `script` (a TypeScript child) compiled to one JavaScript file; built on first use. */
export function compiledChild(script: string): Promise<string> {
  let bundle = bundles.get(script);
  if (bundle === undefined) {
    bundle = (async () => {
      const root = packageRoot(script);
      const name = relative(root, script).replaceAll('/', '-').replace(/\.ts$/, '');
      const outdir = join(outDir(root), name);
      const library = join(root, 'src', 'index.ts');
      try {
        await build({
          entryPoints: existsSync(library) ? [script, library] : [script],
          entryNames: '[name]',
          outExtension: { '.js': '.mjs' },
          splitting: true,
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          packages: 'external',
          outdir,
          plugins: [sourceUrls],
          logLevel: 'silent',
        });
      } catch (e) {
        throw new Error(`could not compile the bench child ${script}: ${(e as Error).message.split('\n')[0]}`);
      }
      return join(outdir, `${basename(script, '.ts')}.mjs`);
    })();
    bundles.set(script, bundle);
  }
  return bundle;
}

/** The command starting `script` compiled, on the Node at `node`, with the child's own arguments. */
export async function childCommand(node: string, script: string, args: readonly string[]): Promise<ChildCommand> {
  return { cmd: node, args: [await compiledChild(script), ...args] };
}
