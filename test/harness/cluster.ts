/**
 * A KRaft cluster of n combined broker+controller nodes on loopback (default 3), from the same Maven jars as
 * the single broker: one cluster id formatted on every node, a static voter set naming all of them, replication
 * settings for acks=all tests (replication factor 3, min ISR 2). Each node is an ordinary harness broker called
 * `<name>-n<id>` (state file, reaper, exit hook), so haltBroker/resumeBroker/stopBroker work on it too.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { haltBroker, resumeBroker, stopBroker as stopNode } from './broker.js';
import { newClusterId, serverProperties } from './broker-config.js';
import { formatStorage, HOST, nodeLayout, spawnServer, waitUntilReady, writeNodeConfig } from './broker-launch.js';
import { kafkaClasspath } from './classpath.js';
import { disown, keepData, own } from './owned-brokers.js';
import { checkBrokerName } from './paths.js';
import { probeMetadata } from './probe.js';
import { freePorts, isOurProcess, sleep } from './process.js';
import { type BrokerState, DATA_DIR_PREFIX, listStateNames, readState, removeDataDir, writeState } from './state.js';
import { checkKafkaVersion, DEFAULT_KAFKA_VERSION, kafkaMajor } from './versions.js';

export interface StartClusterOptions {
  /** Number of nodes, each broker and controller (1..5); 3 by default. */
  brokers?: number;
  kafkaVersion?: string;
  name?: string;
  /** Survive the starting process (CLI). Otherwise the nodes are tied to this process and reaped after it. */
  detached?: boolean;
  timeoutMs?: number;
  /** JVM heap per node; three nodes at 512m fit a small machine. */
  heap?: string;
}

export interface ClusterNode {
  nodeId: number;
  /** The harness broker name (`<cluster>-n<id>`), for haltBroker/resumeBroker. */
  name: string;
  bootstrap: string;
  saslBootstrap: string;
  dataDir: string;
  logFile: string;
  /** True while the node's JVM is alive. */
  isRunning(): Promise<boolean>;
  /** SIGKILL, a crash: no controlled shutdown, leadership moves only once the controller fences the node. */
  kill(): Promise<void>;
  /** SIGTERM, a controlled shutdown. */
  stop(): Promise<void>;
  /** Starts a killed or stopped node again on its data and ports; resolves once it is registered and unfenced. */
  restart(options?: { timeoutMs?: number }): Promise<void>;
}

export interface KafkaCluster {
  name: string;
  kafkaVersion: string;
  clusterId: string;
  /** Every node's PLAINTEXT address, comma-separated. */
  bootstrap: string;
  nodes: ClusterNode[];
  node(nodeId: number): ClusterNode;
  /** Time to ready: classpath resolution, the parallel formats, the servers until every node is in Metadata. */
  timings: { classpathMs: number; formatMs: number; serverMs: number; totalMs: number };
  /** Resolves once every running node answers Metadata listing every node; throws after timeoutMs. */
  waitUntilWhole(timeoutMs?: number): Promise<void>;
  /** Kills every node (no need for a graceful shutdown of data about to be deleted) and removes all data. */
  stop(): Promise<void>;
}

/** Broker session settings that make a crashed node fenced (and its partitions re-elected) in seconds. */
export function clusterOverrides(kafkaVersion: string, n: number): Record<string, string | number | boolean> {
  const replication = Math.min(3, n);
  const minIsr = replication >= 3 ? 2 : 1;
  const props: Record<string, string | number | boolean> = {
    'default.replication.factor': replication,
    'min.insync.replicas': minIsr,
    'offsets.topic.replication.factor': replication,
    // Fewer internal partitions: 50 (the default) triple-replicated is slow to create on a loaded machine.
    'offsets.topic.num.partitions': 6,
    'transaction.state.log.replication.factor': replication,
    'transaction.state.log.min.isr': minIsr,
    'transaction.state.log.num.partitions': 6,
    // Defaults are 2 s / 9 s: a killed leader's partitions would stay leaderless for up to 9 s.
    'broker.heartbeat.interval.ms': 1_000,
    'broker.session.timeout.ms': 6_000,
    'unclean.leader.election.enable': false,
    // Three JVMs share a couple of cores with everything else: fewer idle threads, less scheduling.
    'num.network.threads': 2,
    'num.io.threads': 2,
    'background.threads': 2,
  };
  if (kafkaMajor(kafkaVersion) >= 4) {
    props['share.coordinator.state.topic.replication.factor'] = replication;
    props['share.coordinator.state.topic.min.isr'] = minIsr;
  }
  return props;
}

/**
 * Three server JVMs starting at once on a small, busy machine spend most of their start in the C2 compiler:
 * C1 alone starts them much faster and is plenty for test traffic; a serial GC needs no GC threads.
 */
const CLUSTER_JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

const nodeName = (cluster: string, id: number) => `${cluster}-n${id}`;

export async function startCluster(options: StartClusterOptions = {}): Promise<KafkaCluster> {
  const t0 = Date.now();
  const n = options.brokers ?? 3;
  if (!Number.isInteger(n) || n < 1 || n > 5) throw new Error(`invalid broker count ${n}: expected 1..5`);
  const kafkaVersion = checkKafkaVersion(options.kafkaVersion ?? DEFAULT_KAFKA_VERSION);
  const name = checkBrokerName(options.name ?? 'cluster');
  const detached = options.detached ?? false;
  const timeoutMs = options.timeoutMs ?? 180_000;
  const heap = options.heap ?? '512m';
  const running = await clusterNodeNames(name);
  if (running.length) throw new Error(`cluster "${name}" already has nodes (${running.join(', ')}); stop it first`);

  const classpath = await kafkaClasspath(kafkaVersion);
  const tClasspath = Date.now();
  let tFormat = 0;
  const clusterId = newClusterId();
  const allPorts = await freePorts(3 * n);
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  const ports = ids.map((id) => {
    const [plaintext, sasl, controller] = allPorts.slice(3 * (id - 1), 3 * id);
    return { plaintext, sasl, controller };
  });
  const quorumVoters = ids.map((id) => `${id}@${HOST}:${ports[id - 1].controller}`).join(',');
  const overrides = clusterOverrides(kafkaVersion, n);

  const states: BrokerState[] = [];
  const children = new Map<number, ChildProcess>();
  try {
    // Formats and JVM starts in parallel: with a multi-voter quorum no node is ready before a majority runs.
    // allSettled, not all: a node still formatting when another fails must not spawn after the clean-up.
    const launched = await Promise.allSettled(
      ids.map(async (id) => {
        const nodeNameI = nodeName(name, id);
        const dataDir = await mkdtemp(path.join(os.tmpdir(), `${DATA_DIR_PREFIX}${nodeNameI}-`));
        const p = ports[id - 1];
        const { kraftDir, logFile } = nodeLayout(dataDir);
        const props = serverProperties({
          kafkaVersion,
          ports: p,
          logDir: kraftDir,
          node: { id, quorumVoters },
          overrides,
        });
        const state: BrokerState = {
          name: nodeNameI,
          kafkaVersion,
          nodeId: id,
          pid: -1,
          ports: p,
          bootstrap: `${HOST}:${p.plaintext}`,
          saslBootstrap: `${HOST}:${p.sasl}`,
          dataDir,
          logFile,
          startedAt: new Date().toISOString(),
          ownerPid: detached ? null : process.pid,
        };
        states.push(state);
        await writeNodeConfig(dataDir, props, classpath, CLUSTER_JVM_FLAGS);
        await formatStorage(dataDir, clusterId);
        tFormat = Math.max(tFormat, Date.now());
        const child = await spawnServer(dataDir, heap, detached);
        child.unref();
        state.pid = child.pid!;
        children.set(id, child);
        await writeState(state);
        if (!detached) own(state.name, state.pid, dataDir);
      }),
    );
    const failed = launched.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    await Promise.all(states.map((s) => waitUntilReady(s, children.get(s.nodeId!)!, timeoutMs)));
  } catch (err) {
    await Promise.all(states.map((s) => killAndRemove(s.name, s)));
    throw err;
  }

  const nodes = ids.map((id) => clusterNode(states.find((s) => s.nodeId === id)!, heap));
  const cluster: KafkaCluster = {
    name,
    kafkaVersion,
    clusterId,
    bootstrap: nodes.map((nd) => nd.bootstrap).join(','),
    nodes,
    node(nodeId) {
      const found = nodes.find((nd) => nd.nodeId === nodeId);
      if (!found) throw new Error(`cluster "${name}" has no node ${nodeId}`);
      return found;
    },
    timings: { classpathMs: tClasspath - t0, formatMs: 0, serverMs: 0, totalMs: 0 },
    waitUntilWhole: (ms = 120_000) => waitUntilWhole(nodes, ms),
    stop: () => stopCluster(name).then(() => undefined),
  };
  await cluster.waitUntilWhole(timeoutMs);
  const tReady = Date.now();
  Object.assign(cluster.timings, { formatMs: tFormat - tClasspath, serverMs: tReady - tFormat, totalMs: tReady - t0 });
  return cluster;
}

function clusterNode(state: BrokerState, heap: string): ClusterNode {
  const { name, nodeId, bootstrap, saslBootstrap, dataDir, logFile } = state;
  return {
    nodeId: nodeId!,
    name,
    bootstrap,
    saslBootstrap,
    dataDir,
    logFile,
    isRunning: async () => {
      const s = await readState(name);
      return s !== null && isOurProcess(s.pid, s.dataDir);
    },
    kill: () => haltBroker(name, { kill: true }),
    stop: () => haltBroker(name),
    restart: (o = {}) => resumeBroker(name, { heap, timeoutMs: o.timeoutMs ?? 120_000 }),
  };
}

/** Every running node lists every node of the cluster in its Metadata (all registered and unfenced). */
async function waitUntilWhole(nodes: ClusterNode[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const want = nodes.map((nd) => nd.nodeId).sort();
  let last = 'not checked';
  while (Date.now() < deadline) {
    const seen = await Promise.all(
      nodes.map(async (nd) => {
        const [host, port] = nd.bootstrap.split(':');
        try {
          const m = await probeMetadata(host, Number(port), 1_000);
          return m.brokers.map((b) => b.nodeId).sort();
        } catch (err) {
          return `node ${nd.nodeId}: ${(err as Error).message}`;
        }
      }),
    );
    const bad = seen.find((s) => typeof s === 'string' || s.join() !== want.join());
    if (bad === undefined) return;
    last = typeof bad === 'string' ? bad : `a node lists brokers [${bad.join(', ')}]`;
    await sleep(250);
  }
  throw new Error(`cluster not whole after ${Math.round(timeoutMs / 1000)} s (last check: ${last})`);
}

/** The harness brokers that are nodes of the cluster called name. */
export async function clusterNodeNames(name: string): Promise<string[]> {
  const pattern = new RegExp(`^${name.replaceAll('.', '\\.')}-n\\d+$`);
  return (await listStateNames()).filter((s) => pattern.test(s)).sort();
}

/** Kills every node of the cluster called name and removes its data; resolves false when there was none. */
export async function stopCluster(name: string): Promise<boolean> {
  const names = await clusterNodeNames(checkBrokerName(name));
  await Promise.all(names.map((n) => killAndRemove(n, null)));
  return names.length > 0;
}

async function killAndRemove(name: string, fallback: BrokerState | null): Promise<void> {
  const state = (await readState(name).catch(() => null)) ?? fallback;
  if (state && state.pid > 0 && isOurProcess(state.pid, state.dataDir)) {
    try {
      process.kill(state.pid, 'SIGKILL');
    } catch {}
  }
  // stopBroker waits for the (now dead) process, forgets it and removes data dir and state.
  if (await readState(name).catch(() => null)) await stopNode(name).catch(() => {});
  else if (fallback) {
    // A node that failed before its state file was written.
    disown(name);
    if (!keepData()) await removeDataDir(fallback.dataDir).catch(() => {});
  }
}
