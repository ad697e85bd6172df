/**
 * Every client the produce benchmark runs, each in its own process: the row label, the cases it cannot run
 * and how one round runs. Its id is the fetch bench's id of the same client, whose probe says whether it can
 * run here (bench/produce-rounds.ts, prepareSession).
 */
import { fileURLToPath } from 'node:url';
import { runJavaProducerPerformance } from './clients/java-produce.js';
import { runJsonChild } from './clients/json-child.js';
import { runKcatProduce } from './clients/kcat-produce.js';
import type { BenchContext } from './clients/peers.js';
import type { NodeRuntime } from './clients/process.js';
import type { ClientResult } from './clients/result.js';
import type { ProduceCompression } from './produce-settings.js';

/** One round of one client: a fresh topic to fill with `records` values of `valueBytes`. */
export interface ProduceJob {
  topic: string;
  records: number;
  valueBytes: number;
  compression: ProduceCompression;
  /** The records as lines of a file, for kcat -P. */
  recordsFile: string;
}

export interface ProduceClient {
  /** What `--clients` takes (the fetch bench's ids). */
  id: string;
  name: string;
  unsupported?(compression: ProduceCompression): string | undefined;
  /** The fetch bench client whose probe tells whether this one can run (default: the same id). */
  probeAs?: string;
  run(ctx: BenchContext, job: ProduceJob): Promise<ClientResult>;
}

const script = (name: string) => fileURLToPath(new URL(`./clients/${name}`, import.meta.url));

function node24Of(ctx: BenchContext): NodeRuntime {
  if ('unavailable' in ctx.node24) throw new Error(ctx.node24.unavailable);
  return ctx.node24;
}

async function nodeChild(
  ctx: BenchContext,
  runtime: NodeRuntime,
  name: string,
  job: ProduceJob,
): Promise<ClientResult> {
  const m = await runJsonChild(
    runtime,
    script(name),
    [ctx.bootstrap, job.topic, String(job.records), job.compression],
    15 * 60_000,
  );
  return {
    records: Number(m.records),
    bytes: Number(m.bytes),
    seconds: Number(m.seconds),
    cpuSeconds: Number(m.cpuSeconds),
    peakRssBytes: Number(m.peakRssBytes),
    runtime: `node ${typeof m.node === 'string' ? m.node : runtime.version}`,
  };
}

export const PRODUCE_CLIENTS: readonly ProduceClient[] = [
  {
    id: 'tidemark',
    name: 'tidemark',
    run: (ctx, job) => nodeChild(ctx, ctx.node, 'tidemark-produce.ts', job),
  },
  {
    id: 'tidemark-batch',
    name: 'tidemark (sendBatch)',
    probeAs: 'tidemark',
    run: (ctx, job) => nodeChild(ctx, ctx.node, 'tidemark-produce-batch.ts', job),
  },
  {
    id: 'tidemark-callback',
    name: 'tidemark (send with callback)',
    probeAs: 'tidemark',
    run: (ctx, job) => nodeChild(ctx, ctx.node, 'tidemark-produce-callback.ts', job),
  },
  {
    id: 'tidemark-node24',
    name: 'tidemark (Node 24)',
    run: (ctx, job) => nodeChild(ctx, node24Of(ctx), 'tidemark-produce.ts', job),
  },
  {
    id: 'kafkajs',
    name: 'kafkajs',
    unsupported: (c) =>
      c === 'none' ? undefined : `kafkajs 2.2.4 has no built-in ${c} codec (the kafkajs-lz4 plug-in is not installed)`,
    run: (ctx, job) => nodeChild(ctx, ctx.node, 'kafkajs-produce.ts', job),
  },
  {
    id: 'platformatic',
    name: '@platformatic/kafka',
    run: (ctx, job) => nodeChild(ctx, node24Of(ctx), 'platformatic-produce.ts', job),
  },
  {
    id: 'confluent',
    name: '@confluentinc/kafka-javascript',
    run: (ctx, job) => nodeChild(ctx, ctx.node, 'confluent-produce.ts', job),
  },
  {
    id: 'kcat',
    name: 'kcat',
    run: (ctx, job) =>
      runKcatProduce(ctx.bootstrap, job.topic, job.records, job.valueBytes, job.compression, job.recordsFile),
  },
  {
    id: 'java',
    name: 'Kafka Java producer',
    run: (ctx, job) =>
      runJavaProducerPerformance(
        ctx.bootstrap,
        job.topic,
        job.records,
        job.valueBytes,
        job.compression,
        ctx.toolsVersion,
      ),
  },
];
