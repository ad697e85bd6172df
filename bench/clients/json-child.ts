/**
 * Runs one benchmark child (a TypeScript program, compiled first by bench/child-build.ts, on a given Node) with its own arguments and
 * returns the JSON object it prints as its last stdout line. The produce and latency benchmarks' children
 * take more than the fetch children's three arguments (compression, rate, seconds), so they go through this.
 */
import { childCommand } from '../child-build.js';
import { type NodeRuntime, runProcess } from './process.js';

export async function runJsonChild(
  runtime: NodeRuntime,
  script: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const child = await childCommand(runtime.path, script, args);
  const { stdout, stderr, code, signal } = await runProcess(child.cmd, child.args, { timeoutMs });
  if (code !== 0) throw new Error(`exited ${code ?? signal}: ${stderr.slice(-800)}`);
  const last = stdout.trim().split('\n').pop() ?? '';
  try {
    const parsed: unknown = JSON.parse(last);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new Error(`no result line in the output: ${stdout.slice(-400)} ${stderr.slice(-400)}`);
}
