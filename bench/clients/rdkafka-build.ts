/**
 * @confluentinc/kafka-javascript ships no binary that can be fetched here
 * (its install script downloads one from GitHub releases), and its default
 * source build (static linking) downloads the sources of OpenSSL, zlib,
 * zstd and curl too. So package.json denies its install script
 * (`allowScripts`: npm install stays offline-safe and fast for everyone) and
 * the bench builds it on first use, linking librdkafka dynamically against
 * the system's libraries (CKJS_LINKING=dynamic: Debian's libssl-dev,
 * zlib1g-dev, libzstd-dev, liblz4-dev, libsasl2-dev, libcurl4-openssl-dev),
 * with node-gyp from npm's own installation and the headers of the Node
 * that runs the bench. Those Debian packages (and build-essential, python3)
 * are checked first by bench/install-build-deps.sh, which installs what is
 * missing where it may (root or password-less sudo, not under CI) and
 * otherwise names the apt-get command, which becomes the "not available"
 * reason. The build takes a few minutes on two cores; a failure
 * is remembered (delete the marker or pass --rebuild-rdkafka) and reported
 * as the client's "not available" reason.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NodeRuntime, runProcess } from './process.js';

const PACKAGE = '@confluentinc/kafka-javascript';
/** The budget the issue allows for the build before the client is reported as not built. */
const BUILD_TIMEOUT_MS = 20 * 60_000;
const INSTALL_DEPS = fileURLToPath(new URL('../install-build-deps.sh', import.meta.url));

function packageDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));
  } catch {
    return undefined;
  }
}

/** Whether the binding loads in the Node that runs the client (the ABI it was built for). */
function loads(node: NodeRuntime, dir: string): { ok: true; librdkafka: string } | { ok: false; reason: string } {
  const probe = spawnSync(
    node.path,
    ['-e', `process.stdout.write(require(${JSON.stringify(dir)}).librdkafkaVersion)`],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  if (probe.status === 0) return { ok: true, librdkafka: probe.stdout.trim() };
  const lines = (probe.stderr ?? '').split('\n');
  const line =
    lines.find((l) => /NODE_MODULE_VERSION|cannot open shared object/.test(l)) ??
    lines.find((l) => /Error/.test(l)) ??
    `exit ${probe.status}`;
  return { ok: false, reason: line.trim().slice(0, 240) };
}

function nodeGyp(): string | undefined {
  const candidates: string[] = [];
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp);
  if (process.env.npm_execpath)
    candidates.push(join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const root = spawnSync('npm', ['root', '-g'], { encoding: 'utf8', timeout: 30_000 });
  if (root.status === 0)
    candidates.push(join(root.stdout.trim(), 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  return candidates.find((c) => existsSync(c));
}

/** The Node's headers without a download: the include/ next to its binary, or npm's nodedir setting. */
function nodeDir(node: NodeRuntime): string | undefined {
  const beside = dirname(dirname(node.path));
  if (existsSync(join(beside, 'include', 'node', 'node.h'))) return beside;
  if (process.env.npm_config_nodedir && existsSync(join(process.env.npm_config_nodedir, 'include', 'node', 'node.h')))
    return process.env.npm_config_nodedir;
  return undefined;
}

export type BindingStatus = { available: true; version: string } | { available: false; reason: string };

/**
 * Makes sure the binding is built (building it if needed and allowed) and
 * says whether the client can run.
 */
export async function ensureConfluentBinding(
  node: NodeRuntime,
  log: (line: string) => void,
  options: { rebuild?: boolean; build?: boolean } = {},
): Promise<BindingStatus> {
  const dir = packageDir();
  if (dir === undefined) return { available: false, reason: `npm package ${PACKAGE} not installed (npm install)` };
  const marker = join(dir, 'build', 'tidemark-bench-build-failed.txt');
  const logFile = join(dir, 'build', 'tidemark-bench-build.log');
  if (options.rebuild) rmSync(marker, { force: true });
  else {
    const before = loads(node, dir);
    if (before.ok) return { available: true, version: `librdkafka ${before.librdkafka}` };
    if (existsSync(marker)) return { available: false, reason: readFileSync(marker, 'utf8').trim() };
  }
  if (options.build === false) return { available: false, reason: 'native binding not built (run without --no-build)' };

  const deps = await buildDependencies(log);
  if (deps !== undefined) return remember(marker, `not built from source: ${deps}`);
  const gyp = nodeGyp();
  if (gyp === undefined) return remember(marker, 'not built from source: node-gyp not found (it comes with npm)');
  const headers = nodeDir(node);
  const missing = ['make', 'g++', 'python3'].filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
  if (missing.length > 0) return remember(marker, `not built from source: ${missing.join(', ')} missing`);

  log(
    `building ${PACKAGE} from source for Node ${node.version} (librdkafka linked against the system's libraries; a few minutes, once; log: ${logFile})…`,
  );
  const started = Date.now();
  const env = { ...process.env, CKJS_LINKING: 'dynamic' };
  const args = (cmd: string) => [gyp, cmd, ...(headers === undefined ? [] : [`--nodedir=${headers}`])];
  let output = '';
  try {
    // configure and build separately, and without --jobs: the binding's make
    // target needs librdkafka's config.h, which a parallel make races.
    for (const step of ['configure', 'build']) {
      const elapsed = Date.now() - started;
      const r = await runProcess(node.path, args(step), {
        cwd: dir,
        env,
        timeoutMs: Math.max(1, BUILD_TIMEOUT_MS - elapsed),
      });
      output += r.stdout + r.stderr;
      if (r.code !== 0) {
        const why = (
          r.stderr
            .split('\n')
            .filter((l) => /error|Error|fail/.test(l))
            .pop() ?? `exit ${r.code}`
        ).trim();
        saveLog(logFile, output);
        return remember(marker, `not built from source: node-gyp ${step} failed (${why.slice(0, 200)})`);
      }
    }
  } catch (e) {
    saveLog(logFile, output);
    return remember(
      marker,
      `not built from source within ${BUILD_TIMEOUT_MS / 60_000} min: ${(e as Error).message.slice(0, 200)}`,
    );
  }
  saveLog(logFile, output);
  const after = loads(node, dir);
  if (!after.ok) return remember(marker, `built from source but does not load: ${after.reason}`);
  log(`built ${PACKAGE} (librdkafka ${after.librdkafka}) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { available: true, version: `librdkafka ${after.librdkafka}` };
}

/**
 * The system packages the dynamic build links against: checked, and installed when missing where
 * bench/install-build-deps.sh may. Returns why the build cannot go on, or undefined.
 */
async function buildDependencies(log: (line: string) => void): Promise<string | undefined> {
  const check = spawnSync('sh', [INSTALL_DEPS, '--check'], { encoding: 'utf8', timeout: 60_000 });
  if (check.status === 0) return undefined;
  log(`${check.stdout.trim()}; trying bench/install-build-deps.sh…`);
  const install = await runProcess('sh', [INSTALL_DEPS], { timeoutMs: 15 * 60_000 });
  if (install.code === 0) return undefined;
  const why = install.stderr.trim().split('\n').pop() ?? `exit ${install.code}`;
  return why.replace(/^install-build-deps: /, '').slice(0, 300);
}

function saveLog(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function remember(marker: string, reason: string): BindingStatus {
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, `${reason}\n`);
  return { available: false, reason };
}
