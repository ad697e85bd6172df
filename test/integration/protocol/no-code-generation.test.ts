import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';

/**
 * The library against real brokers where code generation from strings is forbidden: produce, consume in a group and
 * commit under `node --disallow-code-generation-from-strings`, on Kafka 4.x and 3.9 (different negotiated versions,
 * so different generated codecs). Before build-time generation every request failed here with an EvalError.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./no-code-generation-child.ts', import.meta.url));

async function produceAndConsume(broker: string): Promise<{ values: string[]; committed: string[] }> {
  const { stdout } = await run(
    process.execPath,
    ['--disallow-code-generation-from-strings', '--import', 'tsx', CHILD],
    {
      cwd: ROOT,
      timeout: 120_000,
      env: { ...process.env, TIDEMARK_BOOTSTRAP: broker, TIDEMARK_TOPIC: uniqueTopicName('no-codegen') },
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

it('produces, consumes and commits on Kafka 4.x with code generation from strings disallowed', async () => {
  const result = await produceAndConsume(bootstrap());
  expect(result.values).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
  // Committed offset = the next record to read.
  expect(result.committed).toEqual(['5']);
}, 150_000);

// Skipped only in a run started without a 3.9 broker (KAFKA_BOOTSTRAP_LEGACY unset).
it.skipIf(legacyBootstrap() === null)(
  'produces, consumes and commits on Kafka 3.9 with code generation from strings disallowed',
  async () => {
    const result = await produceAndConsume(legacyBootstrap() as string);
    expect(result.values).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
    expect(result.committed).toEqual(['5']);
  },
  150_000,
);
