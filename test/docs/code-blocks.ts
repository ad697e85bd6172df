/**
 * Finds the code blocks of the guides (docs/*.md) and the README, for the tests that type-check them
 * (test/unit/docs) and run the key ones against a broker (test/integration/docs-guides.test.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Guides owned by other documents are checked too: every ```ts block in docs/ and the README must compile. */
export async function documentationFiles(): Promise<string[]> {
  const docs = (await readdir(join(repoRoot, 'docs'))).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

export interface CodeBlock {
  /** Repository-relative path of the Markdown file. */
  file: string;
  /** 1-based line of the block's first code line. */
  line: number;
  code: string;
  /** The name in a `<!-- run: name -->` comment right above the block: run against the test broker. */
  run: string | undefined;
}

const FENCE = /^```(\w*)\s*$/;
const RUN_MARK = /^<!--\s*run:\s*([\w-]+)\s*-->\s*$/;

/** Every fenced block in `language` (```ts by default), with the line it starts on. */
export async function codeBlocks(file: string, language = 'ts'): Promise<CodeBlock[]> {
  const lines = (await readFile(join(repoRoot, file), 'utf8')).split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (open === null) continue;
    const end = lines.findIndex((text, j) => j > i && text.trimEnd() === '```');
    if (end === -1) throw new Error(`${file}:${i + 1}: code block never closed`);
    if (open[1] === language) {
      let above = i - 1;
      while (above >= 0 && lines[above].trim() === '') above--;
      blocks.push({
        file,
        line: i + 2,
        code: lines.slice(i + 1, end).join('\n'),
        run: above < 0 ? undefined : RUN_MARK.exec(lines[above])?.[1],
      });
    }
    i = end;
  }
  return blocks;
}
