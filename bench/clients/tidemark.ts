import { fileURLToPath } from 'node:url';
import { type NodeRuntime, runNodeChild } from './process.js';
import type { ClientResult } from './result.js';

const SCRIPT = fileURLToPath(new URL('./tidemark-fetch.ts', import.meta.url));

/**
 * Runs tidemark in its own Node process (the given runtime) so CPU and memory are its own; `reuseFetchBuffers`
 * turns that consumer option on.
 */
export function runTidemark(
  runtime: NodeRuntime,
  bootstrap: string,
  topic: string,
  records: number,
  options: { reuseFetchBuffers?: boolean } = {},
): Promise<ClientResult> {
  return runNodeChild(runtime, SCRIPT, bootstrap, topic, records, options.reuseFetchBuffers ? ['reuse'] : []);
}
