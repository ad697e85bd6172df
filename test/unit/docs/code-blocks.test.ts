/**
 * Every ```ts block of the guides and the README type-checks against the real public API: each block becomes a
 * module in a temp dir where `tidemark` resolves to src/index.ts, and tsc checks them all in one program.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';
import { type CodeBlock, codeBlocks, documentationFiles, repoRoot } from '../../docs/code-blocks.js';

/**
 * Names a guide may use without defining them (secrets and certificates the reader supplies), declared once
 * for every block; a block that declares its own shadows these.
 */
const PLACEHOLDERS = `
declare const caPem: string;
declare const certPem: string;
declare const keyPem: string;
declare const username: string;
declare const password: string;
declare function fetchToken(): Promise<{ value: string; lifetimeMs: number }>;
`;

let dir: string | undefined;
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/**
 * A block with no import is a fragment of the text around it: it gets `Client` and a `client` to work with, on
 * the same first line so that line numbers stay right.
 */
const FRAGMENT_PRELUDE = "import { Client } from 'tidemark'; declare const client: Client; ";

/**
 * Blocks known not to compile, in documents this test's owner does not edit, each with its reason. The test
 * insists that they still fail, so the entry goes once the block is fixed.
 */
const KNOWN_BROKEN: Record<string, string> = {
  // Imports deep paths the package does not export ('tidemark/consumer/…'), and TransactionalOffsetStore is not
  // exported from src/index.ts at all; it also uses names (instance, partitions, transform) it never defines.
  'docs/transactions.md:49': 'imports unexported deep paths and undefined names',
};

/** `docs/consuming.md` line 42 → `docs__consuming.md.L42.mts`, so a diagnostic names where to look. */
function moduleName(block: CodeBlock): string {
  return `${block.file.replaceAll('/', '__')}.L${block.line}.mts`;
}

it('type-checks every ts code block in docs/*.md and README.md', async () => {
  dir = await mkdtemp(join(tmpdir(), 'tidemark-docs-'));
  const blocks = (await Promise.all((await documentationFiles()).map((file) => codeBlocks(file)))).flat();
  // The README quick start and security example, and at least one block per guide.
  expect(blocks.length).toBeGreaterThanOrEqual(20);
  const files = [join(dir, 'placeholders.d.ts')];
  await writeFile(files[0], PLACEHOLDERS);
  for (const block of blocks) {
    const file = join(dir, moduleName(block));
    // `export {}` makes a block without imports a module too, so top-level await and local names are allowed.
    const fragment = !/^import /m.test(block.code);
    await writeFile(file, `${fragment ? FRAGMENT_PRELUDE : ''}${block.code}\nexport {};\n`);
    files.push(file);
  }
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    typeRoots: [join(repoRoot, 'node_modules/@types')],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    baseUrl: dir,
    paths: {
      tidemark: [join(repoRoot, 'src/index.ts')],
      'tidemark/opentelemetry': [join(repoRoot, 'src/observability/opentelemetry.ts')],
      'tidemark/prometheus': [join(repoRoot, 'src/observability/prometheus.ts')],
      // The optional peers those two entry points need, as the application that uses them installs them.
      '@opentelemetry/api': [join(repoRoot, 'node_modules/@opentelemetry/api/build/src/index.d.ts')],
      'prom-client': [join(repoRoot, 'node_modules/prom-client/index.d.ts')],
    },
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || d.file.fileName.startsWith(dir as string))
    .map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const block = blocks.find((b) => d.file?.fileName.endsWith(moduleName(b)));
      if (block === undefined || d.file === undefined || d.start === undefined) return { block: undefined, text };
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      return { block: `${block.file}:${block.line}`, text: `${block.file}:${block.line + line}: ${text}` };
    });
  const unexpected = problems.filter((p) => p.block === undefined || !(p.block in KNOWN_BROKEN));
  expect(
    unexpected.map((p) => p.text),
    `${blocks.length} blocks checked`,
  ).toEqual([]);
  for (const at of Object.keys(KNOWN_BROKEN)) {
    expect(
      problems.some((p) => p.block === at),
      `${at} compiles now: remove it from KNOWN_BROKEN`,
    ).toBe(true);
  }
  console.log(`docs: ${blocks.length} ts code blocks type-checked`);
}, 180_000);
