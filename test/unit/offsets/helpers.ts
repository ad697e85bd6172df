import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach } from 'vitest';

/** A fresh directory under the OS temp dir, removed after the current test. Real filesystem, no mocks. */
export function useTempDirs(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tidemark-offsets-'));
    dirs.push(dir);
    return dir;
  };
}

/** An offset commit for `partition` of `topic`. */
export function at(topic: string, partition: number, offset: bigint | number, leaderEpoch?: number) {
  return { topic, partition, offset: BigInt(offset), leaderEpoch };
}
