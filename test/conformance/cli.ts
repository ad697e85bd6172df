import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkKafkaVersion, KAFKA_VERSIONS, repoRoot } from './kafka.js';
import { compactVersions, groupMismatches } from './mismatch.js';
import { allTargets, runConformance, selectTargets, type TargetResult } from './run.js';

/**
 * `npm run conformance`: checks every protocol definition against Kafka's
 * schemas and serializers, prints a table, and exits non-zero on any
 * mismatch. With `--json` the last line is the summary as JSON.
 */

const USAGE = `usage: npm run conformance -- [options]
  --kafka-version X   check against one Kafka release only (default: ${KAFKA_VERSIONS.join(' and ')})
  --api Name          check one definition only (repeatable), e.g. Metadata, RequestHeader
  --seed N            seed of the random messages (default: random, printed)
  --messages N        random messages per API, version and direction (default: 20)
  --schema-only       skip the byte check (no JVM)
  --json              end with {"apis":N,"versions":M,"mismatches":K}
  --verbose           also print notes (versions Kafka serves that tidemark does not claim)`;

function intOption(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new Error(`--${name} needs a non-negative integer, got "${text}"`);
  return Number(text);
}

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'kafka-version': { type: 'string' },
      api: { type: 'string', multiple: true },
      seed: { type: 'string' },
      messages: { type: 'string' },
      'schema-only': { type: 'boolean' },
      json: { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const kafkaVersion = values['kafka-version'];
  const seed = intOption('seed', values.seed, Math.floor(Math.random() * 2 ** 31));
  const messages = intOption('messages', values.messages, 20);
  if (kafkaVersion !== undefined) checkKafkaVersion(kafkaVersion);
  // Unknown names fail before any work starts.
  const targets = values.api === undefined ? allTargets() : selectTargets(allTargets(), values.api);
  const started = Date.now();
  console.log(
    `conformance: Kafka ${kafkaVersion ?? KAFKA_VERSIONS.join(', ')}; ` +
      `seed ${seed}, ${messages} random messages per version (reproduce with --seed ${seed})`,
  );
  console.log(
    'preparing Kafka (Maven, javac and a JVM per release; cached in .tidemark/conformance after the first run)',
  );
  // Checks count (message, version, Kafka release) triples.
  const widths = [30, 10, 13, 11, 10];
  console.log(row(['definition', 'versions', 'schema checks', 'byte checks', 'mismatches'], widths));
  const onResult = (r: TargetResult) => {
    const cells = [r.name, compactVersions(r.versions) || '-', String(r.schemaChecks), String(r.bytesChecks)];
    console.log(row([...cells, r.mismatches.length === 0 ? 'ok' : String(r.mismatches.length)], widths));
  };
  const dumpDir = path.join(repoRoot, '.tidemark', 'conformance', 'failures');
  await rm(dumpDir, { recursive: true, force: true }); // only this run's failures
  const summary = await runConformance({
    dumpDir,
    kafkaVersions: kafkaVersion === undefined ? undefined : [kafkaVersion],
    targets,
    seed,
    messages,
    bytes: !values['schema-only'],
    onResult,
  });
  const all = summary.results.flatMap((r) => r.mismatches);
  if (all.length > 0) {
    console.log(`\nmismatches (${all.length}; versions folded into one line where the finding is the same):`);
    for (const line of groupMismatches(all)) console.log(`  ${line}`);
    if (all.some((m) => m.kind === 'bytes')) console.log(`\nfailing messages (JSON and both encodings): ${dumpDir}`);
  }
  const notes = summary.results.flatMap((r) => r.notes);
  if (values.verbose && notes.length > 0) {
    console.log('\nnotes:');
    for (const n of notes) console.log(`  ${n}`);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `\n${summary.apis} definitions, ${summary.versions} (definition, version) pairs, ${summary.mismatches} mismatches in ${seconds}s`,
  );
  if (values.json) {
    console.log(JSON.stringify({ apis: summary.apis, versions: summary.versions, mismatches: summary.mismatches }));
  }
  return summary.mismatches > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 2;
  },
);
