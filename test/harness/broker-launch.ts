/**
 * The JVM side of a broker's life: writing its config, formatting its storage, spawning the server and
 * waiting until it is ready. Shared by the single broker (broker.ts) and the three-node cluster (cluster.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { LOG4J2_PROPERTIES, NODE_ID, scramFormatArgs } from './broker-config.js';
import { runJava, spawnJava, writeClasspathArgFile } from './java.js';
import { notReadyReason } from './probe.js';
import { isOurProcess, sleep, tail } from './process.js';
import type { BrokerState } from './state.js';

export const HOST = '127.0.0.1';

/** Where a broker keeps everything below its data dir (config, logs, the KRaft log dirs). */
export function nodeLayout(dataDir: string) {
  const configDir = path.join(dataDir, 'config');
  const logsDir = path.join(dataDir, 'logs');
  return {
    configDir,
    logsDir,
    serverProps: path.join(configDir, 'server.properties'),
    log4j: path.join(configDir, 'log4j2.properties'),
    classpathArgs: path.join(configDir, 'classpath.args'),
    /** Optional JVM flags replacing the server defaults; kept in the data dir so a restart uses them too. */
    jvmArgs: path.join(configDir, 'jvm.args'),
    logFile: path.join(logsDir, 'server.log'),
    kraftDir: path.join(dataDir, 'kraft'),
  };
}

/**
 * Creates config/ and logs/ and writes server.properties, the log4j2 config and the classpath arg file;
 * jvmFlags (if given) replace the G1 server flags below for every start of this node.
 */
export async function writeNodeConfig(
  dataDir: string,
  serverProperties: string,
  classpath: string,
  jvmFlags?: string[],
): Promise<void> {
  const l = nodeLayout(dataDir);
  await mkdir(l.configDir, { recursive: true });
  await mkdir(l.logsDir, { recursive: true });
  await writeFile(l.serverProps, serverProperties);
  await writeFile(l.log4j, LOG4J2_PROPERTIES);
  await writeClasspathArgFile(l.classpathArgs, classpath);
  if (jvmFlags !== undefined) await writeFile(l.jvmArgs, `${jvmFlags.join('\n')}\n`);
}

/** kafka-storage format with the given cluster id (and the SCRAM users); throws with the tool's output on failure. */
export async function formatStorage(dataDir: string, clusterId: string): Promise<void> {
  const l = nodeLayout(dataDir);
  const formatOut = path.join(l.logsDir, 'format.out');
  // Format is a short-lived JVM: C1 only and a serial GC start it faster than the server settings would.
  const code = await runJava({
    cwd: dataDir,
    outFile: formatOut,
    args: [
      '-Xmx256m',
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      `-Dlog4j2.configurationFile=${l.log4j}`,
      `-Dtidemark.log.file=${path.join(l.logsDir, 'format.log')}`,
      `@${l.classpathArgs}`,
      'kafka.tools.StorageTool',
      'format',
      '--cluster-id',
      clusterId,
      '--config',
      l.serverProps,
      ...scramFormatArgs(),
    ],
  });
  if (code !== 0) throw new Error(`kafka-storage format failed (exit ${code}):\n${await tail(formatOut, 20)}`);
}

/** Starts the server JVM on a formatted data dir (config, classpath and log files all live in it). */
export function spawnServer(dataDir: string, heap: string, detached: boolean): Promise<ChildProcess> {
  const l = nodeLayout(dataDir);
  return spawnJava({
    cwd: dataDir,
    outFile: path.join(l.logsDir, 'server.out'),
    detached,
    args: [
      `-Xmx${heap}`,
      `-Xms${heap}`,
      // The flags kafka-server-start.sh uses, minus GC logging, unless the node was given its own.
      ...(existsSync(l.jvmArgs)
        ? [`@${l.jvmArgs}`]
        : [
            '-XX:+UseG1GC',
            '-XX:MaxGCPauseMillis=20',
            '-XX:InitiatingHeapOccupancyPercent=35',
            '-XX:+ExplicitGCInvokesConcurrent',
          ]),
      '-Djava.awt.headless=true',
      `-Dlog4j2.configurationFile=${l.log4j}`,
      `-Dtidemark.log.file=${l.logFile}`,
      `@${l.classpathArgs}`,
      'kafka.Kafka',
      l.serverProps,
    ],
  });
}

/** Ready = answers ApiVersions, lists itself in Metadata (registered and unfenced), and the SASL port accepts. */
export async function waitUntilReady(state: BrokerState, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const nodeId = state.nodeId ?? NODE_ID;
  let last = 'not started';
  let exit: string | null = null;
  child.once('exit', (code, signal) => {
    exit = signal ? `signal ${signal}` : `exit code ${code}`;
  });
  while (Date.now() < deadline) {
    if (exit || !isOurProcess(state.pid, state.dataDir)) {
      throw new Error(
        `Kafka ${state.kafkaVersion} broker "${state.name}" died during start (${exit ?? 'gone'}); ` +
          `log tail (${state.logFile}):\n${await tail(state.logFile)}\n${await tail(path.join(path.dirname(state.logFile), 'server.out'), 10)}`,
      );
    }
    const reason = await notReadyReason(HOST, state.ports.plaintext, state.ports.sasl, nodeId);
    if (reason === null) return;
    last = reason;
    await sleep(200);
  }
  throw new Error(
    `Kafka ${state.kafkaVersion} broker "${state.name}" not ready after ${Math.round(timeoutMs / 1000)} s ` +
      `(last check: ${last}); log tail (${state.logFile}):\n${await tail(state.logFile)}`,
  );
}
