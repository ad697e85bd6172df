/**
 * Child process of the benchmark: loads a workload into an existing topic.
 * Used where the Node running the bench cannot compress the workload's
 * codec (zstd on Node 20, whose zlib has no zstd): the parent runs this on
 * Node 24 instead. Prints `loaded N` lines on stderr as it goes.
 */
import { Client } from '../src/client.js';
import { loadRecords, type Workload } from './load.js';

const [bootstrap, workloadJson] = process.argv.slice(2);
const workload = JSON.parse(workloadJson) as Workload;
const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-bench-loader' });
let shown = 0;
await loadRecords(client, workload, (done) => {
  if (done - shown >= workload.records / 10 || done === workload.records) {
    shown = done;
    process.stderr.write(`loaded ${done}\n`);
  }
});
await client.close();
