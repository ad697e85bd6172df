/**
 * The three-node cluster of an admin test file (replica moves, leader elections): started before its tests with
 * a client on it, both closed after them; and the polling those tests need for what takes the cluster seconds
 * (a move finishing, a stopped node fenced), longer than `eventually` waits for a metadata read.
 */
import { afterAll, beforeAll } from 'vitest';
import { Client } from '../../../src/client.js';
import { type KafkaCluster, startCluster } from '../../harness/cluster.js';

export interface ThreeNodeCluster {
  cluster: KafkaCluster;
  client: Client;
}

/** A three-node cluster of `kafkaVersion` (the harness default when omitted) for the calling test file or describe. */
export function useThreeNodeCluster(name: string, kafkaVersion?: string): () => ThreeNodeCluster {
  let started: ThreeNodeCluster | undefined;
  beforeAll(async () => {
    const cluster = await startCluster({ brokers: 3, kafkaVersion, name: `${name}-${process.pid}` });
    started = { cluster, client: new Client({ bootstrap: cluster.bootstrap, requestTimeoutMs: 30_000 }) };
  }, 300_000);
  afterAll(async () => {
    await started?.client.close();
    await started?.cluster.stop();
  }, 120_000);
  return () => {
    if (started === undefined) throw new Error(`the three-node cluster ${name} did not start`);
    return started;
  };
}

/** Polls until `ready` resolves true (a rejection counts as not yet), every 250 ms; throws after timeoutMs. */
export async function waitUntil(what: string, ready: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  const check = () =>
    ready().catch((err: unknown) => {
      lastError = err;
      return false;
    });
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`, { cause: lastError });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
