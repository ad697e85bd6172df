// `npm run build`: compiles the library into dist/ (ESM JavaScript and its declarations), then gives `require`
// callers declarations of their own. At run time `require('tidemark')` loads the same ESM files (require(esm),
// Node >= 20.19), so there is one copy of every class and `instanceof` holds whichever way it was loaded. But
// TypeScript under `module: node16` refuses to let CommonJS code reference ESM declarations; a copy of them
// under dist/cjs-types, marked CommonJS by its own package.json, is what package.json's `require` condition
// names. Starts from an empty dist/ so that files of deleted sources never reach the package.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// tsc emits even when it reports type errors; its exit status is this script's, after the copy below.
const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });

const cjsTypes = path.join(dist, 'cjs-types');
for (const dir of ['src', 'protocol', 'codecs']) {
  for (const file of readdirSync(path.join(dist, dir), { recursive: true })) {
    if (!file.endsWith('.d.ts')) continue;
    const target = path.join(cjsTypes, dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(dist, dir, file), target);
  }
}
writeFileSync(path.join(cjsTypes, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
process.exitCode = compiled.status ?? 1;
