#!/usr/bin/env node
// The CLI lives in src/cli; this shim only loads the compiled build.
import('../dist/src/cli/main.js').then(
  (m) => m.main(process.argv.slice(2)),
  (err) => {
    console.error(`tidemark: cannot load the CLI (${err.message}); run "npm run build" first`);
    process.exitCode = 1;
  },
);
