/** Runs the CLI in-process with captured output (shared by the unit and integration tests of src/cli). */
import { Readable } from 'node:stream';
import type { CliIO } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  tty?: boolean;
  cwd?: string;
  /** Sees each chunk written to stdout as it is written. */
  onStdout?: (text: string) => void;
  /** Called with the interrupt trigger, to simulate Ctrl-C. */
  interrupt?: (fire: () => void) => void;
}

export async function runCli(argv: string[], options: CliRunOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const handlers = new Set<() => void>();
  const io: Partial<CliIO> = {
    stdout: {
      write: (s: string) => {
        stdout += s;
        options.onStdout?.(s);
      },
    },
    stderr: { write: (s: string) => (stderr += s) },
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.tty ?? false,
    columns: 100,
    env: { ...options.env },
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    cwd: options.cwd ?? process.cwd(),
    onInterrupt(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
  };
  options.interrupt?.(() => {
    for (const h of handlers) h();
  });
  const before = process.exitCode;
  try {
    const code = await main(argv, io);
    return { code, stdout, stderr };
  } finally {
    process.exitCode = before;
  }
}
