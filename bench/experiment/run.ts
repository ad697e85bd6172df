/**
 * `npm run experiment`: the paper's crash experiment (issue 7) against a real broker, with tidemark. Four
 * commit schemes — (a) commit at fetch, (b) async commit after processing, (c) the FileOffsetStore (SEO),
 * (d) a transactional sink holding results and offsets together — each run with consumer processes that
 * are stopped mid-stream (SIGTERM, then separately SIGKILL) and restarted until every record is consumed;
 * then lost and duplicated records are counted. Starts the embedded broker unless KAFKA_BOOTSTRAP is set.
 *
 *   npm run experiment -- [--records N] [--runs N] [--modes a,b,c,d,e] [--rate N] [--json] [--out FILE|-]
 *                         [--kafka-version V]   (names an external broker's version in the results)
 *
 * --rate is the handler's average rate limit in records/s (runs vary around it). The tables go to stdout
 * and to --out (default bench/results/experiment.md; `-` writes none); progress to stderr. With --json the
 * last stdout line is `{"modes":{"<mode>":{"graceful":{"lost":L,"duplicated":D},"sigkill":{…}}}}` (totals
 * over the runs). Exit code 1 when a mode contradicts what is expected of it (see report.ts).
 */
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runExperiment, totals } from './experiment.js';
import { MODES, type Mode } from './modes.js';
import { boundLine, jsonLine, resultsMarkdown, runsTable, totalsTable, verdicts } from './report.js';
import { experimentBroker, prepareExperimentTopic } from './setup.js';

const { values: opts } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    modes: { type: 'string', default: MODES.join(',') },
    rate: { type: 'string', default: '20000' },
    json: { type: 'boolean', default: false },
    'kafka-version': { type: 'string' },
    out: { type: 'string', default: fileURLToPath(new URL('../results/experiment.md', import.meta.url)) },
  },
});
const log = (line: string) => process.stderr.write(`${line}\n`);
const usage = (why: string): never => {
  log(why);
  log(
    'usage: npm run experiment -- [--records N] [--runs N] [--modes a,b,c,d,e] [--rate N] [--json] [--out FILE|-] [--kafka-version V]',
  );
  process.exit(2);
};
const positive = (name: string, text: string): number => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : usage(`--${name} must be a positive integer, not ${text}`);
};
const records = positive('records', opts.records);
const runs = positive('runs', opts.runs);
const baseRate = positive('rate', opts.rate);
const modes = opts.modes.split(',').map((m) => {
  const mode = m.trim() as Mode;
  return MODES.includes(mode) ? mode : usage(`unknown mode ${m} (modes: ${MODES.join(', ')})`);
});
if (records < 100) usage('--records must be at least 100');

const started = performance.now();
const loadAtStart = loadavg()[0];
const broker = await experimentBroker(log);
try {
  const topic = await prepareExperimentTopic(broker.bootstrap, records, log);
  const stops = { minStops: 2, maxStops: 4 };
  const outcomes = await runExperiment({ bootstrap: broker.bootstrap, topic, modes, runs, baseRate, ...stops, log });
  const sums = totals(outcomes);
  const checks = verdicts(outcomes, sums);
  process.stdout.write(`\nEvery run:\n${runsTable(outcomes)}\n\nTotals:\n${totalsTable(sums, checks)}\n`);
  const bound = boundLine(outcomes);
  if (bound !== undefined) process.stdout.write(`\n${bound}\n`);
  for (const [mode, c] of checks) if (!c.ok) log(`mode (${mode}) contradicts what is expected: ${c.why}`);
  if ([...checks.values()].some((c) => !c.ok)) process.exitCode = 1;
  if (opts.out !== '-') {
    const md = resultsMarkdown(outcomes, sums, checks, {
      command: `npm run experiment -- --records ${records} --runs ${runs} --modes ${modes.join(',')} --rate ${baseRate}`,
      kafkaVersion:
        broker.kafkaVersion === 'external'
          ? `${opts['kafka-version'] ?? 'version not given'} (at KAFKA_BOOTSTRAP)`
          : broker.kafkaVersion,
      records,
      runs,
      baseRate,
      stops: `${stops.minStops}–${stops.maxStops}`,
      wallSeconds: (performance.now() - started) / 1000,
      loadAtStart,
    });
    await writeFile(opts.out, md);
    log(`wrote ${opts.out}`);
  }
  if (opts.json) process.stdout.write(`${jsonLine(sums)}\n`);
} finally {
  await broker.stop();
}
