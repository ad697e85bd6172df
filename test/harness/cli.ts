/**
 * npm run broker -- start [--kafka-version 3.9.1] [--name x] [--timeout seconds] [--brokers 3]
 * npm run broker -- status [--name x]
 * npm run broker -- stop [--name x]
 *
 * Addresses go to stdout as KEY=value lines (so `eval "$(npm run -s broker -- start)"` feeds KAFKA_BOOTSTRAP
 * into a test run), everything for humans goes to stderr.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { brokerStatus, startBroker, stopBroker } from './broker.js';
import { clusterNodeNames, startCluster, stopCluster } from './cluster.js';
import type { BrokerState } from './state.js';
import { kafkaMajor } from './versions.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const USAGE =
  'usage: npm run broker -- start [--kafka-version x.y.z] [--name n] [--timeout s] [--brokers n] | status [--name n] | stop [--name n]';

function addressLines(s: Pick<BrokerState, 'kafkaVersion' | 'bootstrap' | 'saslBootstrap'>): string[] {
  // A 3.x broker is the "legacy" one the test run looks for under its own variable.
  const suffix = kafkaMajor(s.kafkaVersion) < 4 ? '_LEGACY' : '';
  return [`KAFKA_BOOTSTRAP${suffix}=${s.bootstrap}`, `KAFKA_SASL_BOOTSTRAP${suffix}=${s.saslBootstrap}`];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one CLI command and returns its exit code; never calls process.exit, so tests can drive it. */
export async function runCli(argv: string[], io: CliIo = consoleIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    io.err(`broker: ${(err as Error).message}`);
    io.err(USAGE);
    return 2;
  }
  const { command, name, kafkaVersion, timeout, brokers } = parsed;
  try {
    switch (command) {
      case 'start': {
        if (brokers !== undefined) {
          // A KRaft cluster of n nodes (cluster.ts): its nodes are brokers called <name>-n1…n.
          const c = await startCluster({ brokers, name, kafkaVersion, detached: true, timeoutMs: timeout });
          const saslBootstrap = c.nodes.map((n) => n.saslBootstrap).join(',');
          for (const line of addressLines({ kafkaVersion: c.kafkaVersion, bootstrap: c.bootstrap, saslBootstrap }))
            io.out(line);
          io.err(
            `cluster "${c.name}": ${brokers} nodes of Kafka ${c.kafkaVersion} ready in ${seconds(c.timings.totalMs)}`,
          );
          return 0;
        }
        const b = await startBroker({ name, kafkaVersion, detached: true, timeoutMs: timeout });
        for (const line of addressLines(b)) io.out(line);
        const t = b.timings;
        io.err(
          `broker "${b.name}": Kafka ${b.kafkaVersion} ready in ${seconds(t.totalMs)} (classpath ${seconds(t.classpathMs)}, ` +
            `format ${seconds(t.formatMs)}, server ${seconds(t.serverMs)}); pid ${b.pid}, log ${b.logFile}`,
        );
        return 0;
      }
      case 'status': {
        const s = await brokerStatus(name);
        const nodes = s ? [] : await clusterNodeNames(name);
        if (nodes.length) {
          const all = await Promise.all(nodes.map((n) => brokerStatus(n)));
          for (const [i, n] of all.entries())
            io.err(
              `${nodes[i]}: ${n ? `pid ${n.pid}, ${n.bootstrap}, ${n.answering ? 'answering' : 'not answering'}` : 'down'}`,
            );
          return all.every((n) => n?.answering) ? 0 : 1;
        }
        if (!s) {
          io.err(`broker: no broker "${name}" is running`);
          return 1;
        }
        for (const line of addressLines(s)) io.out(line);
        if (!s.answering) {
          io.err(`broker: "${name}" (pid ${s.pid}) is running but does not answer ApiVersions; log ${s.logFile}`);
          return 1;
        }
        io.err(`broker "${name}": Kafka ${s.kafkaVersion} up since ${s.startedAt}; pid ${s.pid}, log ${s.logFile}`);
        return 0;
      }
      case 'stop': {
        const what = (await stopBroker(name)) ? 'broker' : (await stopCluster(name)) ? 'cluster' : null;
        if (what === null) {
          io.err(`broker: no broker "${name}" to stop`);
          return 1;
        }
        io.err(`${what} "${name}" stopped, data removed`);
        return 0;
      }
      default:
        return 2;
    }
  } catch (err) {
    // One line for the headline; a start failure carries the broker log tail on the following lines.
    io.err(`broker: ${(err as Error).message}`);
    return 1;
  }
}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string', default: 'default' },
      'kafka-version': { type: 'string' },
      timeout: { type: 'string' },
      brokers: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (positionals.length !== 1 || (command !== 'start' && command !== 'status' && command !== 'stop')) {
    throw new Error(positionals.length ? `unknown command "${positionals.join(' ')}"` : 'missing command');
  }
  if (command !== 'start' && (values['kafka-version'] || values.timeout || values.brokers)) {
    throw new Error(`--kafka-version, --timeout and --brokers only apply to start`);
  }
  const brokers = values.brokers === undefined ? undefined : Number(values.brokers);
  if (brokers !== undefined && !(Number.isInteger(brokers) && brokers >= 1 && brokers <= 5)) {
    throw new Error(`invalid --brokers "${values.brokers}": expected 1..5`);
  }
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout) * 1000;
  if (timeout !== undefined && !(timeout > 0)) throw new Error(`invalid --timeout "${values.timeout}"`);
  return { command, name: values.name, kafkaVersion: values['kafka-version'], timeout, brokers };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runCli(process.argv.slice(2));
}
