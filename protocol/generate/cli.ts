/**
 * `npm run generate`: writes protocol/generated/ from the protocol
 * definitions (see generate.ts) and removes generated files no definition
 * produces any more. Run it after changing or adding a definition; the unit
 * test test/unit/protocol/generated.test.ts fails while the files are stale.
 *
 * The definitions' registry imports the generated table, so a table that
 * cannot load (a module deleted by hand, a bad merge) would stop the
 * generator itself: it then writes an empty table and runs once more.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(root, 'protocol/generated');

let generate: typeof import('./generate.js');
try {
  generate = await import('./generate.js');
} catch (err) {
  if (process.env.TIDEMARK_GENERATE_RETRY !== undefined) throw err;
  console.error(`protocol/generated does not load (${(err as Error).message}); starting from an empty table`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'index.ts'),
    'export const GENERATED_CODECS = {};\nexport interface GeneratedMessageTypes {}\n',
  );
  const again = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, TIDEMARK_GENERATE_RETRY: '1' },
  });
  process.exit(again.status ?? 1);
}

const { GENERATED_DIR, generateAll } = generate;
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
