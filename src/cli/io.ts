/**
 * Where the CLI writes and what it knows about its terminal. Commands never touch `process` directly, so tests
 * run them in-process with captured output.
 */

export interface TextSink {
  write(text: string): unknown;
}

export interface CliIO {
  stdout: TextSink;
  stderr: TextSink;
  /** Whether stdout is a terminal: tables may use colour. */
  stdoutIsTTY: boolean;
  /** Whether stderr is a terminal: progress bars are drawn only then. */
  stderrIsTTY: boolean;
  /** Terminal width for progress bars; 80 when unknown. */
  columns: number;
  env: Record<string, string | undefined>;
  /** Where `produce` reads lines from. */
  stdin: NodeJS.ReadableStream;
  /** Working directory for relative paths (files to import, offsets dirs). */
  cwd: string;
  /** Fires when the user interrupts (Ctrl-C); returns a function that stops listening. */
  onInterrupt(handler: () => void): () => void;
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stderr.columns ?? 80,
    env: process.env,
    stdin: process.stdin,
    cwd: process.cwd(),
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}

/** Colour only on a terminal, and never with NO_COLOR (https://no-color.org) or TERM=dumb. */
export function useColour(io: CliIO): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') return true;
  return io.stdoutIsTTY && io.env.TERM !== 'dumb';
}
