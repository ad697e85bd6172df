/**
 * `npm run generate`: writes protocol/generated/ from the protocol
 * definitions (see generate.ts) and removes generated files no definition
 * produces any more. Run it after changing or adding a definition; the unit
 * test test/unit/protocol/generated.test.ts fails while the files are stale.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_DIR, generateAll } from './generate.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = generateAll();
mkdirSync(join(root, GENERATED_DIR), { recursive: true });
let written = 0;
for (const [path, text] of files) {
  const target = join(root, path);
  let old: string | undefined;
  try {
    old = readFileSync(target, 'utf8');
  } catch {}
  if (old !== text) {
    writeFileSync(target, text);
    written++;
  }
}
let removed = 0;
for (const name of readdirSync(join(root, GENERATED_DIR))) {
  if (!files.has(`${GENERATED_DIR}/${name}`)) {
    rmSync(join(root, GENERATED_DIR, name));
    removed++;
  }
}
console.log(`${GENERATED_DIR}: ${files.size} files, ${written} written, ${removed} removed`);
