/**
 * The version `tidemark --version` prints: the one in tidemark's package.json, found by walking up from this
 * file, which sits in src/cli when run from the sources and in dist/src/cli when run from the package.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tidemark' && pkg.version !== undefined) return pkg.version;
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}
