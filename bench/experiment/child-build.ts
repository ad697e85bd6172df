import { fileURLToPath } from 'node:url';
import { compiledChild } from '../child-build.js';

const CHILD_SOURCE = fileURLToPath(new URL('./consumer-child.ts', import.meta.url));

/** How to start a consumer process: the executable and the arguments before the config. */
export interface ChildCommand {
  command: string;
  args: string[];
  how: string;
}

/**
 * The consumer process is started dozens of times per run: it runs compiled, as every bench child does
 * (bench/child-build.ts: bundled once per process with esbuild, not transpiled by tsx at every start, which
 * costs seconds on a busy machine). The bundle is removed when the experiment's process exits.
 */
export async function buildChild(): Promise<ChildCommand> {
  const bundle = await compiledChild(CHILD_SOURCE);
  return { command: process.execPath, args: [bundle], how: 'compiled (bench/child-build.ts)' };
}
