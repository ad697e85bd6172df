/**
 * `--baseline <ref>` resolution (bench/baseline.ts): a ref of this repository becomes its full and short
 * sha (the client is named `tidemark@<short>`); anything else is a clear error naming the ref, before any
 * worktree is made.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { resolveRef } from '../../../bench/baseline.js';

describe('--baseline ref', () => {
  it('resolves HEAD to its commit (CI checkouts can be shallow, so no older ref)', async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const r = await resolveRef('HEAD');
    expect(r.sha).toBe(head);
    expect(head.startsWith(r.short)).toBe(true);
    expect(r.short.length).toBeGreaterThanOrEqual(7);
  });

  it('rejects a ref that names no commit', async () => {
    await expect(resolveRef('no-such-branch-of-tidemark')).rejects.toThrow(
      '--baseline no-such-branch-of-tidemark: not a commit of this repository',
    );
    await expect(resolveRef('HEAD:package.json')).rejects.toThrow(/not a commit/);
  });
});
