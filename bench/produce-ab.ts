/**
 * Alternating A/B child runs of the produce path: the produce child (bench/clients/tidemark-produce.ts, one
 * `send()` per record, or with `--child batch` tidemark-produce-batch.ts, `--child callback`
 * tidemark-produce-callback.ts) of this tree and of one or more baseline trees, each compiled as
 * bench/child-build.ts compiles the bench's children, run in turn under `node --trace-gc`, a fresh topic per
 * run, the order rotating round by round so load drifts hit every tree alike. Prints each run, then per tree
 * the median CPU s per 1M records, scavenges (count and total ms, from `--trace-gc`) and records/s. On a
 * shared, loaded machine only the pairs mean anything, never the absolute figures.
 *
 * A baseline tree is a plain copy of an earlier commit with the shared node_modules linked in:
 *
 *   mkdir -p /tmp/base && git archive main | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/
 *   source /work/brokers.env  # or any KAFKA_BOOTSTRAP
 *   npx tsx bench/produce-ab.ts --baseline /tmp/base [--child send,batch,callback] [--compression none,lz4]
 *       [--records 1000000] [--rounds 4]
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '../src/client.js';
import { compiledChild } from './child-build.js';
import { currentNode, runProcess } from './clients/process.js';
import { PRODUCE_WORKLOAD } from './produce-settings.js';
import { createFreshTopic, deleteTopicQuietly, endOffsetSum } from './produce-topics.js';

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string', multiple: true },
    child: { type: 'string', default: 'send' },
    compression: { type: 'string', default: 'none,lz4' },
    records: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '4' },
  },
});
const bootstrap = process.env.KAFKA_BOOTSTRAP;
if (bootstrap === undefined) throw new Error('KAFKA_BOOTSTRAP must name the broker');
const CHILDREN: Record<string, string> = {
  send: 'bench/clients/tidemark-produce.ts',
  batch: 'bench/clients/tidemark-produce-batch.ts',
  callback: 'bench/clients/tidemark-produce-callback.ts',
};
const childNames = args.child.split(',');
for (const c of childNames) {
  if (CHILDREN[c] === undefined) throw new Error(`--child ${c}: one of ${Object.keys(CHILDREN).join(', ')}`);
}
const records = Number(args.records);
const rounds = Number(args.rounds);
const cases = args.compression.split(',');

// Every child of every tree takes its turn (several children: the call shapes side by side in one tree).
const trees = [
  { name: 'this tree', root: resolve(import.meta.dirname, '..') },
  ...(args.baseline ?? []).map((dir) => ({ name: dir, root: resolve(dir) })),
].flatMap((t) =>
  childNames.map((c) => ({
    name: childNames.length > 1 ? `${t.name} (${c})` : t.name,
    root: t.root,
    child: CHILDREN[c],
  })),
);
const bundles = await Promise.all(trees.map((t) => compiledChild(resolve(t.root, t.child))));
const node = currentNode();
const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-produce-ab' });

interface Run {
  cpuPerMillion: number;
  scavenges: number;
  scavengeMs: number;
  recordsPerSecond: number;
  load: number;
}

/** One child run into a fresh topic; fails unless the topic then holds exactly the records acknowledged. */
async function runOnce(bundle: string, compression: string, tag: string): Promise<Run> {
  const topic = `tidemark-produce-ab-${tag}-${Date.now()}`;
  await createFreshTopic(client, topic, PRODUCE_WORKLOAD.partitions);
  const load = loadavg()[0];
  try {
    const done = await runProcess(
      node.path,
      ['--trace-gc', bundle, bootstrap as string, topic, String(records), compression],
      { timeoutMs: 600_000 },
    );
    const lines = done.stdout.split('\n');
    const resultLine = lines.filter((l) => l.startsWith('{')).pop();
    if (done.code !== 0 || resultLine === undefined) {
      throw new Error(`child exited ${done.code}: ${done.stderr.slice(-800)}`);
    }
    const result = JSON.parse(resultLine) as { records: number; seconds: number; cpuSeconds: number };
    const written = await endOffsetSum(client, topic);
    if (result.records !== records || written !== records) {
      throw new Error(`acknowledged ${result.records} and the topic holds ${written}, not ${records}`);
    }
    let scavenges = 0;
    let scavengeMs = 0;
    for (const l of lines) {
      const m = /Scavenge.*?, ([\d.]+) \/ [\d.]+ ms/.exec(l);
      if (m === null) continue;
      scavenges++;
      scavengeMs += Number(m[1]);
    }
    return {
      cpuPerMillion: (result.cpuSeconds / records) * 1e6,
      scavenges,
      scavengeMs,
      recordsPerSecond: records / result.seconds,
      load,
    };
  } finally {
    await deleteTopicQuietly(client, topic);
  }
}

const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

console.log(`node ${node.version}; child ${args.child}; ${records.toLocaleString('en-US')} records; ${rounds} rounds`);
for (const compression of cases) {
  const runs = trees.map(() => [] as Run[]);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < trees.length; k++) {
      const i = (k + round) % trees.length;
      const r = await runOnce(bundles[i], compression, `${i}-${round}`);
      runs[i].push(r);
      console.log(
        `${compression} round ${round + 1} ${trees[i].name}: ${r.cpuPerMillion.toFixed(2)} CPU s/1M, ` +
          `${r.scavenges} scavenges ${(r.scavengeMs / 1000).toFixed(2)} s, ${Math.round(r.recordsPerSecond)} rec/s, load ${r.load.toFixed(1)}`,
      );
    }
  }
  console.log(`\n${compression}: | tree | CPU s per 1M (median; per round) | scavenges | scavenge s | records/s |`);
  for (let i = 0; i < trees.length; i++) {
    const cpu = runs[i].map((r) => r.cpuPerMillion);
    console.log(
      `| ${trees[i].name} | ${median(cpu).toFixed(2)} (${cpu.map((c) => c.toFixed(2)).join(' ')}) | ` +
        `${median(runs[i].map((r) => r.scavenges))} | ${(median(runs[i].map((r) => r.scavengeMs)) / 1000).toFixed(2)} | ` +
        `${Math.round(median(runs[i].map((r) => r.recordsPerSecond)))} |`,
    );
  }
  console.log('');
}
await client.close();
