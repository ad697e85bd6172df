import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrokerPorts } from './broker-config.js';
import { brokerStateDir, brokersDir } from './paths.js';

/** What another process needs to find, report and stop a broker: `.tidemark/broker/<name>/state.json`. */
export interface BrokerState {
  name: string;
  kafkaVersion: string;
  /** KRaft node id; absent for a single broker (NODE_ID). Cluster nodes use 1..n. */
  nodeId?: number;
  pid: number;
  ports: BrokerPorts;
  bootstrap: string;
  saslBootstrap: string;
  dataDir: string;
  logFile: string;
  startedAt: string;
  /** The process whose exit should take the broker down (the vitest run); null for `npm run broker -- start`. */
  ownerPid: number | null;
}

export const DATA_DIR_PREFIX = 'tidemark-broker-';

export function stateFile(name: string): string {
  return path.join(brokerStateDir(name), 'state.json');
}

export async function readState(name: string): Promise<BrokerState | null> {
  try {
    return JSON.parse(await readFile(stateFile(name), 'utf8')) as BrokerState;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`unreadable broker state ${stateFile(name)}: ${(err as Error).message}`);
  }
}

export async function writeState(state: BrokerState): Promise<void> {
  const file = stateFile(state.name);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`);
  await rename(tmp, file);
}

export async function listStateNames(): Promise<string[]> {
  if (!existsSync(brokersDir)) return [];
  const entries = await readdir(brokersDir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && existsSync(stateFile(e.name))).map((e) => e.name);
}

/**
 * Removes a broker's data dir, but only one the harness made (under the temp dir, with our prefix):
 * the path comes from a file on disk and `rm -rf` of anything else would be a disaster.
 */
export async function removeDataDir(dataDir: string): Promise<void> {
  const resolved = path.resolve(dataDir);
  const ours =
    path.dirname(resolved) === path.resolve(os.tmpdir()) && path.basename(resolved).startsWith(DATA_DIR_PREFIX);
  if (!ours) throw new Error(`refusing to delete ${dataDir}: not a harness data dir`);
  await rm(resolved, { recursive: true, force: true, maxRetries: 3 });
}

export async function removeState(name: string): Promise<void> {
  await rm(brokerStateDir(name), { recursive: true, force: true });
}
