/**
 * `npx tsx bench/reuse-pairs.ts [rounds] [workload…]`: the fetch child (bench/clients/tidemark-fetch.ts) with the
 * consumer option reuseFetchBuffers off and on, in paired rounds whose order alternates, on the bench's
 * workloads (default headline and values-1k) against KAFKA_BOOTSTRAP. Prints one markdown row per round: load
 * average before each run, CPU s per 1M records, records/s and peak RSS of each, and the on/off ratios.
 * The figures of bench/results/frames.md, "Reusing response memory".
 */
import { loadavg } from 'node:os';
import { currentNode } from './clients/process.js';
import type { ClientResult } from './clients/result.js';
import { runTidemark } from './clients/tidemark.js';
import { prepareTopic } from './topic.js';
import { WORKLOADS } from './workloads.js';

const [roundsText, ...names] = process.argv.slice(2);
const rounds = Number(roundsText ?? 6);
const bootstrap = process.env.KAFKA_BOOTSTRAP;
if (bootstrap === undefined) throw new Error('KAFKA_BOOTSTRAP must name the broker');
const node = currentNode();
const log = (line: string) => console.error(line);
const cpu = (r: ClientResult) => (r.cpuSeconds / r.records) * 1e6;
const mib = (r: ClientResult) => r.peakRssBytes / 2 ** 20;

for (const spec of WORKLOADS.filter((w) => (names.length === 0 ? ['headline', 'values-1k'] : names).includes(w.name))) {
  const w = await prepareTopic(bootstrap, spec, log, { fresh: false, node24: undefined });
  console.log(`\n${spec.name} (${w.topic})\n`);
  console.log(
    '| round | load avg (off / on) | off CPU s/1M | on CPU s/1M | on / off | off rec/s | on rec/s | off RSS MiB | on RSS MiB | on / off |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? [false, true] : [true, false];
    const got = new Map<boolean, { r: ClientResult; load: number }>();
    for (const reuse of order) {
      const load = loadavg()[0];
      const r = await runTidemark(node, bootstrap, w.topic, w.records, { reuseFetchBuffers: reuse });
      if (r.records !== w.records) throw new Error(`read ${r.records} records, not ${w.records}`);
      got.set(reuse, { r, load });
    }
    const off = got.get(false)!;
    const on = got.get(true)!;
    console.log(
      `| ${round} | ${off.load.toFixed(1)} / ${on.load.toFixed(1)} | ${cpu(off.r).toFixed(3)} | ${cpu(on.r).toFixed(3)} | ${(cpu(on.r) / cpu(off.r)).toFixed(3)} | ${Math.round(off.r.records / off.r.seconds).toLocaleString('en-US')} | ${Math.round(on.r.records / on.r.seconds).toLocaleString('en-US')} | ${mib(off.r).toFixed(0)} | ${mib(on.r).toFixed(0)} | ${(mib(on.r) / mib(off.r)).toFixed(3)} |`,
    );
  }
}
