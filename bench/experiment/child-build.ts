import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const CHILD_SOURCE = fileURLToPath(new URL('./consumer-child.ts', import.meta.url));
/** Inside the repository, so the bundle's runtime requires (crc-32, …) resolve from node_modules. */
const BUNDLE_DIR = fileURLToPath(new URL('../../node_modules/.cache/tidemark-experiment/', import.meta.url));

/** How to start a consumer process: the executable and the arguments before the config. */
export interface ChildCommand {
  command: string;
  args: string[];
  how: string;
}

/**
 * The consumer process is started dozens of times per run, and under tsx each start transpiles the whole
 * client again (7 s on a busy 2-core machine against 1 s for a bundle). So the child is bundled once per
 * experiment with esbuild (tsx's own transpiler, installed with it); if that fails, each start uses tsx.
 */
export async function buildChild(log: (line: string) => void): Promise<ChildCommand> {
  try {
    const esbuild = await import('esbuild');
    await mkdir(BUNDLE_DIR, { recursive: true });
    const outfile = `${BUNDLE_DIR}consumer-child-${process.pid}.mjs`;
    await esbuild.build({
      entryPoints: [CHILD_SOURCE],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      logLevel: 'silent',
      // Bundled CommonJS dependencies call require(); an ES module has none of its own.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
    return { command: process.execPath, args: [outfile], how: 'bundled with esbuild' };
  } catch (err) {
    log(`could not bundle the consumer (${(err as Error).message.split('\n')[0]}); starting it with tsx`);
    return { command: process.execPath, args: ['--import', 'tsx', CHILD_SOURCE], how: 'tsx' };
  }
}
