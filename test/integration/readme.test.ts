import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, it, vi } from 'vitest';
import { bootstrap, uniqueTopicName } from '../harness/context.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The README's quick start, run as written against the test broker, so the front door never lies. */
it('runs the README quick start', async () => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  expect(code, 'no ts code block under ## Quick start').toBeDefined();
  const topic = uniqueTopicName('readme');
  const runnable = (code as string)
    .replace("from 'tidemark'", `from ${JSON.stringify(pathToFileURL(join(root, 'src/index.ts')).href)}`)
    .replaceAll("'127.0.0.1:9092'", JSON.stringify(bootstrap()))
    .replaceAll("'events'", JSON.stringify(topic))
    .replaceAll("'quick-start'", JSON.stringify(`${topic}-group`));
  const dir = await mkdtemp(join(tmpdir(), 'tidemark-readme-'));
  const file = join(dir, 'quick-start.ts');
  await writeFile(file, runnable);
  const logged: unknown[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args) => {
    logged.push(...args);
  });
  try {
    await import(pathToFileURL(file).href);
  } finally {
    spy.mockRestore();
    await rm(dir, { recursive: true, force: true });
  }
  // The quick start prints each of the ten records it produced, once: partition, offset, value.
  expect(logged).toHaveLength(30);
  const values = [];
  for (let i = 0; i < logged.length; i += 3) values.push(logged[i + 2]);
  expect(values.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `click ${i}`).sort());
});
