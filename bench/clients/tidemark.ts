import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ClientResult } from './result.js';

const SCRIPT = fileURLToPath(new URL('./tidemark-fetch.ts', import.meta.url));

/** Runs tidemark in its own Node process so CPU and memory are its own. */
export function runTidemark(bootstrap: string, topic: string, records: number): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, bootstrap, topic, String(records)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`tidemark client exited ${code}: ${stderr.slice(-800)}`));
      const m = JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
      resolve({ ...m, runtime: `node ${m.node}` });
    });
  });
}
