/**
 * A real Kafka broker (KRaft, combined broker+controller) from Maven Central jars, on free loopback ports.
 * State goes to `.tidemark/broker/<name>/state.json` so `status`/`stop` work from another process.
 * This file is the lifecycle (start, halt, resume, status, stop, reap); the JVM launch (config, format, server,
 * readiness) is in broker-launch.ts, the exit hook in owned-brokers.ts, multi-node clusters in cluster.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { newClusterId, serverProperties } from './broker-config.js';
import { formatStorage, HOST, nodeLayout, spawnServer, waitUntilReady, writeNodeConfig } from './broker-launch.js';
import { kafkaClasspath } from './classpath.js';
import { disown, isOwned, keepData, own } from './owned-brokers.js';
import { checkBrokerName } from './paths.js';
import { probeApiVersions } from './probe.js';
import { freePorts, isAlive, isOurProcess, terminate } from './process.js';
import {
  type BrokerState,
  DATA_DIR_PREFIX,
  listStateNames,
  readState,
  removeDataDir,
  removeState,
  writeState,
} from './state.js';
import { generateTlsMaterial, type TlsMaterial } from './tls-certs.js';
import { checkKafkaVersion, DEFAULT_KAFKA_VERSION } from './versions.js';

export interface StartBrokerOptions {
  kafkaVersion?: string;
  name?: string;
  /** Survive the starting process (CLI). Otherwise the broker is tied to this process and reaped after it. */
  detached?: boolean;
  timeoutMs?: number;
  /** JVM max heap; 512m is plenty for tests and keeps two brokers affordable on a small machine. */
  heap?: string;
  /**
   * Extra listener security: TLS listeners (certificates generated now), a short re-auth window, OAUTHBEARER, an
   * authorizer (super user `admin`, nothing allowed to anyone else without an ACL).
   */
  security?: { tls?: boolean; reauthMs?: number; oauthbearer?: boolean; authorizer?: boolean };
}

export interface StartTimings {
  classpathMs: number;
  formatMs: number;
  serverMs: number;
  totalMs: number;
}

export interface KafkaBroker {
  name: string;
  kafkaVersion: string;
  bootstrap: string;
  saslBootstrap: string;
  pid: number;
  dataDir: string;
  logFile: string;
  timings: StartTimings;
  /** With `security.tls`: where the TLS listeners are and what a client needs to trust (and be trusted). */
  tls?: BrokerTls;
  stop(): Promise<void>;
}

export interface BrokerTls {
  /** SSL without client authentication. */
  sslBootstrap: string;
  /** SSL that requires a client certificate signed by the test CA. */
  mtlsBootstrap: string;
  /** SASL_SSL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512). */
  saslSslBootstrap: string;
  material: TlsMaterial;
}

export async function startBroker(options: StartBrokerOptions = {}): Promise<KafkaBroker> {
  const t0 = Date.now();
  const kafkaVersion = checkKafkaVersion(options.kafkaVersion ?? DEFAULT_KAFKA_VERSION);
  const name = checkBrokerName(options.name ?? 'default');
  const detached = options.detached ?? false;
  const timeoutMs = options.timeoutMs ?? 120_000;

  const existing = await brokerStatus(name);
  if (existing) {
    throw new Error(
      `broker "${name}" is already running (pid ${existing.pid}, ${existing.bootstrap}); stop it first: npm run broker -- stop --name ${name}`,
    );
  }
  const classpath = await kafkaClasspath(kafkaVersion);
  const tClasspath = Date.now();

  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${DATA_DIR_PREFIX}${name}-`));
  const { configDir, logFile, kraftDir } = nodeLayout(dataDir);
  let child: ChildProcess | undefined;
  try {
    const wantTls = options.security?.tls === true;
    const [plaintext, sasl, controller, ssl, mtls, saslSsl] = await freePorts(wantTls ? 6 : 3);
    const ports = wantTls ? { plaintext, sasl, controller, ssl, mtls, saslSsl } : { plaintext, sasl, controller };
    let material: TlsMaterial | undefined;
    if (wantTls) {
      const tlsDir = path.join(configDir, 'tls');
      await mkdir(tlsDir, { recursive: true });
      material = await generateTlsMaterial(tlsDir);
    }
    const security =
      options.security === undefined
        ? undefined
        : {
            reauthMs: options.security.reauthMs,
            oauthbearer: options.security.oauthbearer,
            authorizer: options.security.authorizer,
            tls: material?.files,
          };
    await writeNodeConfig(dataDir, serverProperties({ kafkaVersion, ports, logDir: kraftDir, security }), classpath);
    await formatStorage(dataDir, newClusterId());
    const tFormat = Date.now();

    child = await spawnServer(dataDir, options.heap ?? '512m', detached);
    child.unref();
    const pid = child.pid!;
    const state: BrokerState = {
      name,
      kafkaVersion,
      pid,
      ports,
      bootstrap: `${HOST}:${plaintext}`,
      saslBootstrap: `${HOST}:${sasl}`,
      dataDir,
      logFile,
      startedAt: new Date().toISOString(),
      ownerPid: detached ? null : process.pid,
    };
    // Written before the wait so that a start interrupted midway can still be stopped and cleaned.
    await writeState(state);
    if (!detached) own(name, pid, dataDir);
    await waitUntilReady(state, child, timeoutMs);
    const tReady = Date.now();
    const tls =
      material === undefined
        ? undefined
        : {
            sslBootstrap: `${HOST}:${ssl}`,
            mtlsBootstrap: `${HOST}:${mtls}`,
            saslSslBootstrap: `${HOST}:${saslSsl}`,
            material,
          };
    return {
      ...pick(state),
      tls,
      timings: {
        classpathMs: tClasspath - t0,
        formatMs: tFormat - tClasspath,
        serverMs: tReady - tFormat,
        totalMs: tReady - t0,
      },
      stop: () => stopBroker(name).then(() => undefined),
    };
  } catch (err) {
    if (child?.pid) await terminate(child.pid, dataDir, 5_000).catch(() => {});
    disown(name);
    if ((await readState(name))?.dataDir === dataDir) await removeState(name);
    if (!keepData()) await removeDataDir(dataDir).catch(() => {});
    throw err;
  }
}

/**
 * Stops a broker's process but keeps its data dir, ports and state, so resumeBroker can bring the same broker
 * (same cluster id, logs and committed offsets) back: for tests of a coordinator or leader outage.
 * `kill` sends SIGKILL (a crash) instead of a clean shutdown.
 */
export async function haltBroker(name: string, options: { kill?: boolean } = {}): Promise<void> {
  const state = await readState(checkBrokerName(name));
  if (!state) throw new Error(`no broker called "${name}"`);
  if (options.kill && isOurProcess(state.pid, state.dataDir)) process.kill(state.pid, 'SIGKILL');
  await terminate(state.pid, state.dataDir);
}

/** Starts a halted broker again on its data dir and ports; resolves once it is ready. */
export async function resumeBroker(name: string, options: { heap?: string; timeoutMs?: number } = {}): Promise<void> {
  const state = await readState(checkBrokerName(name));
  if (!state) throw new Error(`no broker called "${name}"`);
  if (isOurProcess(state.pid, state.dataDir)) throw new Error(`broker "${name}" is still running (pid ${state.pid})`);
  const child = await spawnServer(state.dataDir, options.heap ?? '512m', state.ownerPid === null);
  child.unref();
  const resumed: BrokerState = { ...state, pid: child.pid!, startedAt: new Date().toISOString() };
  await writeState(resumed);
  if (isOwned(name)) own(name, resumed.pid, resumed.dataDir);
  await waitUntilReady(resumed, child, options.timeoutMs ?? 120_000);
}

function pick(s: BrokerState) {
  const { name, kafkaVersion, bootstrap, saslBootstrap, pid, dataDir, logFile } = s;
  return { name, kafkaVersion, bootstrap, saslBootstrap, pid, dataDir, logFile };
}

export interface BrokerStatus extends BrokerState {
  /** The process is there, but does it answer ApiVersions right now? */
  answering: boolean;
}

/** The running broker called name, or null. A state file whose process is gone is cleaned up on the way. */
export async function brokerStatus(name = 'default'): Promise<BrokerStatus | null> {
  const state = await readState(checkBrokerName(name));
  if (!state) return null;
  if (!isOurProcess(state.pid, state.dataDir)) {
    await cleanUp(state);
    return null;
  }
  const answering = await probeApiVersions(HOST, state.ports.plaintext, 1_000).then(
    (r) => r.errorCode === 0,
    () => false,
  );
  return { ...state, answering };
}

/** Stops the broker called name and removes its data. Resolves false when there was none. */
export async function stopBroker(name = 'default'): Promise<boolean> {
  const state = await readState(checkBrokerName(name));
  if (!state) return false;
  await terminate(state.pid, state.dataDir);
  disown(name);
  await cleanUp(state);
  return true;
}

async function cleanUp(state: BrokerState): Promise<void> {
  if (!keepData()) await removeDataDir(state.dataDir).catch(() => {});
  await removeState(state.name);
}

/** Stops brokers whose owning test run died without teardown, and forgets state whose process is gone. */
export async function reapOrphanedBrokers(): Promise<string[]> {
  const reaped: string[] = [];
  for (const name of await listStateNames()) {
    const state = await readState(name).catch(() => null);
    if (!state) continue;
    const orphan = state.ownerPid !== null && !isAlive(state.ownerPid);
    if (orphan || !isOurProcess(state.pid, state.dataDir)) {
      await stopBroker(name);
      reaped.push(name);
    }
  }
  return reaped;
}
