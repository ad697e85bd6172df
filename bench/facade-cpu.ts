/**
 * CPU seconds per million records of tidemark/kafkajs beside its peers (issue 15's speed targets): the core
 * consumer (bench/clients/tidemark-fetch.ts), the facade's eachBatch and eachMessage, and kafkajs 2.2.4's
 * eachMessage, each in its own process over the same topic, in alternating rounds; medians printed. CPU time
 * (user + system of the child, process.cpuUsage over the measured window) holds up on a loaded machine far
 * better than records/s, which is printed beside it. `--before DIR` adds the facade rows of another checkout
 * (e.g. `git worktree add --detach DIR <commit>`, with node_modules linked in) to compare a change.
 * bench/results/facade-profile.md is written from it.
 *
 *   npx tsx bench/facade-cpu.ts <bootstrap> <topic> <records> [--rounds N] [--before DIR]
 *
 * The topic is one `npm run bench -- --records N` loaded (or any topic holding exactly <records> records).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { currentNode, runNodeChild } from './clients/process.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '5' }, before: { type: 'string' } },
});
const [bootstrap, topic, recordsText] = positionals;
const records = Number(recordsText);
if (bootstrap === undefined || topic === undefined || !Number.isInteger(records) || records < 1) {
  process.stderr.write(
    'usage: npx tsx bench/facade-cpu.ts <bootstrap> <topic> <records> [--rounds N] [--before DIR]\n',
  );
  process.exit(2);
}

const here = fileURLToPath(new URL('./clients/', import.meta.url));
const clients: [string, string][] = [
  ['tidemark (core consumer)', join(here, 'tidemark-fetch.ts')],
  ['tidemark/kafkajs eachBatch', join(here, 'facade-each-batch.ts')],
  ['tidemark/kafkajs eachMessage', join(here, 'facade-each-message.ts')],
  ['kafkajs 2.2.4 eachMessage', join(here, 'kafkajs-each-message.ts')],
];
if (values.before !== undefined) {
  const before = join(values.before, 'bench', 'clients');
  clients.splice(1, 0, ['tidemark/kafkajs eachBatch (before)', join(before, 'facade-each-batch.ts')]);
  clients.splice(3, 0, ['tidemark/kafkajs eachMessage (before)', join(before, 'facade-each-message.ts')]);
}

const node = currentNode();
const results = new Map<string, { cpu: number[]; rate: number[] }>(
  clients.map(([name]) => [name, { cpu: [], rate: [] }]),
);
const loads: number[] = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const [name, script] of clients) {
    const r = await runNodeChild(node, script, bootstrap, topic, records);
    if (r.records !== records) throw new Error(`${name} read ${r.records} records, not ${records}`);
    const entry = results.get(name);
    entry?.cpu.push((r.cpuSeconds / records) * 1e6);
    entry?.rate.push(records / r.seconds);
    loads.push(loadavg()[0]);
    process.stderr.write(`round ${round} ${name}: ${((r.cpuSeconds / records) * 1e6).toFixed(3)} CPU s/M\n`);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuOf = (name: string) => median(results.get(name)?.cpu ?? [Number.NaN]);
const rateOf = (name: string) => median(results.get(name)?.rate ?? [Number.NaN]);
const lines = [
  `${records.toLocaleString('en-US')} records of ${topic}, ${values.rounds} alternating rounds, Node ${node.version}, ` +
    `load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (1 min) during the runs`,
  '',
  '| client | CPU s per 1M records (median) | each round | records/s (median) |',
  '| --- | ---: | --- | ---: |',
  ...[...results].map(
    ([name, r]) =>
      `| ${name} | ${cpuOf(name).toFixed(3)} | ${r.cpu.map((c) => c.toFixed(2)).join(' ')} | ${Math.round(rateOf(name)).toLocaleString('en-US')} |`,
  ),
  '',
  '| target (issue 15) | by CPU per record | by records/s (loaded machine) |',
  '| --- | ---: | ---: |',
  `| eachBatch ≥ 0.8× the core consumer | ${(cpuOf(clients[0][0]) / cpuOf('tidemark/kafkajs eachBatch')).toFixed(2)}× | ${(rateOf('tidemark/kafkajs eachBatch') / rateOf(clients[0][0])).toFixed(2)}× |`,
  `| eachMessage ≥ 3× kafkajs eachMessage | ${(cpuOf('kafkajs 2.2.4 eachMessage') / cpuOf('tidemark/kafkajs eachMessage')).toFixed(2)}× | ${(rateOf('tidemark/kafkajs eachMessage') / rateOf('kafkajs 2.2.4 eachMessage')).toFixed(2)}× |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
