import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, found from this file so the harness works from any cwd (CLI, vitest, scripts). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Per-checkout scratch space (gitignored): classpath cache and broker state files. */
export const tidemarkDir = path.join(repoRoot, '.tidemark');

export const pomPath = path.join(repoRoot, 'test', 'harness', 'pom.xml');

export const brokersDir = path.join(tidemarkDir, 'broker');

export function brokerStateDir(name: string): string {
  return path.join(brokersDir, name);
}

/** Names become directory names, so keep them to a safe alphabet. */
export function checkBrokerName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new Error(`invalid broker name "${name}": use letters, digits, '.', '_' or '-'`);
  }
  return name;
}
