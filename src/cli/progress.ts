import type { CliIO } from './io.js';

/** A progress bar on stderr, drawn only on a terminal (and never with --json): elsewhere every call is a no-op. */
export interface Progress {
  /** Sets the total (unknown: a spinner with the count). */
  total(n: number): void;
  tick(n?: number, label?: string): void;
  /** Clears the bar; later output starts on a clean line. */
  done(): void;
}

const NOOP: Progress = { total() {}, tick() {}, done() {} };
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function progress(io: CliIO, title: string, enabled = true): Progress {
  if (!enabled || !io.stderrIsTTY) return NOOP;
  let count = 0;
  let total: number | undefined;
  let label = '';
  let frame = 0;
  let drawn = false;
  const width = Math.max(20, Math.min(io.columns, 120) - 1);
  const draw = () => {
    let line: string;
    if (total !== undefined && total > 0) {
      const barWidth = Math.max(10, Math.min(30, width - title.length - 30));
      const filled = Math.round((Math.min(count, total) / total) * barWidth);
      line = `${title} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${count}/${total} ${label}`;
    } else {
      line = `${SPINNER[frame++ % SPINNER.length]} ${title} ${count > 0 ? count : ''} ${label}`;
    }
    io.stderr.write(`\r${line.slice(0, width).padEnd(width)}`);
    drawn = true;
  };
  // A spinner keeps turning while a single long call runs.
  const timer = setInterval(draw, 100);
  timer.unref();
  draw();
  return {
    total(n) {
      total = n;
      draw();
    },
    tick(n = 1, l = '') {
      count += n;
      label = l;
      draw();
    },
    done() {
      clearInterval(timer);
      if (drawn) io.stderr.write(`\r${' '.repeat(width)}\r`);
    },
  };
}
