/** Shared set-up of the CLI integration tests: brokers, names, an unreachable address, Kafka's own tool. */
import { createServer } from 'node:net';
import { Client } from '../../../src/client.js';
import { bootstrap, uniqueTopicName } from '../../harness/context.js';
import { type CliResult, type CliRunOptions, runCli } from '../../unit/cli/capture.js';

export type { CliResult };
export { runCli };

/** `tidemark <argv…> --bootstrap <4.x broker>` in-process. */
export function cli(argv: string[], options: CliRunOptions & { bootstrap?: string } = {}): Promise<CliResult> {
  return runCli([...argv, '--bootstrap', options.bootstrap ?? bootstrap(), '--timeout', '20000'], options);
}

export function newClient(at = bootstrap()): Client {
  return new Client({ bootstrap: at, requestTimeoutMs: 20_000 });
}

export async function newTopic(client: Client, prefix: string, partitions = 1): Promise<string> {
  const name = uniqueTopicName(`cli-${prefix}`);
  await client.admin.createTopics([{ name, numPartitions: partitions, replicationFactor: 1 }]);
  return name;
}

export function uniqueGroup(prefix: string): string {
  return uniqueTopicName(`cli-grp-${prefix}`);
}

/** A loopback port nothing listens on (taken and released, so it refuses connections). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whitespace-separated cells of a table's rows whose first cell is `first`. */
export function tableRows(text: string, first: string): string[][] {
  return text
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((cells) => cells[0] === first);
}
