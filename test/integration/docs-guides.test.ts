/**
 * The guides' key examples (the ```ts blocks marked `<!-- run: name -->` in docs/*.md), run as written against
 * the test brokers, as readme.test.ts does for the README quick start: only the bootstrap address, the topic
 * `orders`, the group `billing` and the directory `./offsets` are swapped for the test's own.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { type CodeBlock, codeBlocks, documentationFiles, repoRoot } from '../docs/code-blocks.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../harness/context.js';

interface Run {
  topic: string;
  group: string;
  dir: string;
  /** Each console.log call's arguments, joined by spaces. */
  lines: string[];
}

/** What each marked block must have done; a marked block without an entry here fails the test. */
const CHECKS: Record<string, (run: Run) => Promise<void>> = {
  'getting-started': async ({ lines }) => {
    expect(lines.filter((l) => l.startsWith('sent ')).length).toBe(5);
    const received = lines.filter((l) => l.startsWith('received ')).map((l) => l.split(' ').slice(3).join(' '));
    expect(received.sort()).toEqual(['order 0', 'order 1', 'order 2', 'order 3', 'order 4']);
  },
  'consuming-file-store': async ({ lines, dir, group, topic }) => {
    expect(lines).toEqual(['stored 3']);
    // The SEO layout: <dir>/<groupId>/<topic>/gtoffset, with the next offset to read (3) of partition 0.
    const file = await readFile(join(dir, group, topic, 'gtoffset'), 'utf8');
    expect(file).toMatch(/^0 3 /m);
    expect(existsSync(join(dir, group, topic, 'gtoffset'))).toBe(true);
  },
  'consuming-seek': async ({ lines }) => {
    expect(lines).toEqual(['2:c 3:d']);
  },
  producing: async ({ lines }) => {
    // Unkeyed → the partitioner's choice (the last partition); explicit partition 0; keyed → murmur2, any of 3.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^partition 2 offset 0$/);
    expect(lines[1]).toMatch(/^partition [0-2] offset [01]$/);
    expect(lines[2]).toMatch(/^partition 0 offset [01]$/);
  },
  admin: async ({ lines }) => {
    // The value set at creation; the alteration after it is not read back (brokers apply it asynchronously).
    expect(lines).toEqual(['created {topic} 2', 'retention.ms 86400000', 'altered 1', 'partitions 3', 'topics true']);
  },
};

async function runBlock(block: CodeBlock, broker: string): Promise<Run> {
  const topic = uniqueTopicName(`docs-${block.run}`);
  const dir = await mkdtemp(join(tmpdir(), 'tidemark-docs-run-'));
  const run: Run = { topic, group: `${topic}-group`, dir, lines: [] };
  expect(block.code, `${block.file}:${block.line} must connect to '127.0.0.1:9092'`).toContain("'127.0.0.1:9092'");
  const code = block.code
    .replace("from 'tidemark'", `from ${JSON.stringify(pathToFileURL(join(repoRoot, 'src/index.ts')).href)}`)
    .replaceAll("'127.0.0.1:9092'", JSON.stringify(broker))
    .replaceAll("'orders'", JSON.stringify(topic))
    .replaceAll("'billing'", JSON.stringify(run.group))
    .replaceAll("'./offsets'", JSON.stringify(dir));
  const file = join(dir, `${block.run}.ts`);
  await writeFile(file, code);
  const spy = vi.spyOn(console, 'log').mockImplementation((...args) => {
    run.lines.push(args.map((a) => (a === topic ? '{topic}' : String(a))).join(' '));
  });
  try {
    await import(pathToFileURL(file).href);
  } finally {
    spy.mockRestore();
  }
  return run;
}

const marked = (await Promise.all((await documentationFiles()).map((f) => codeBlocks(f)))).flat().filter((b) => b.run);

it('finds the marked guide blocks, each with a check', () => {
  expect(marked.map((b) => b.run).sort()).toEqual(Object.keys(CHECKS).sort());
});

const brokers: [string, () => string | null][] = [
  ['4.x', bootstrap],
  ['3.9', legacyBootstrap],
];
for (const [version, address] of brokers) {
  describe(`guide examples on Kafka ${version}`, () => {
    for (const block of marked) {
      // No legacy broker when KAFKA_BOOTSTRAP names a cluster of one's own (the harness then starts none).
      it.skipIf(address() === null)(`${block.file}:${block.line} (${block.run})`, async () => {
        const run = await runBlock(block, address() as string);
        try {
          await CHECKS[block.run as string](run);
        } finally {
          await rm(run.dir, { recursive: true, force: true });
        }
      });
    }
  });
}
