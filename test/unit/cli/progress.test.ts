import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type CliIO, useColour } from '../../../src/cli/io.js';
import { progress } from '../../../src/cli/progress.js';

function io(tty: boolean, env: Record<string, string> = {}): CliIO & { err: string[] } {
  const err: string[] = [];
  return {
    err,
    stdout: { write: () => true },
    stderr: { write: (s: string) => err.push(s) },
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    columns: 60,
    env,
    stdin: Readable.from([]),
    cwd: '/',
    onInterrupt: () => () => {},
  };
}

describe('progress', () => {
  it('draws nothing off a terminal', () => {
    const out = io(false);
    const bar = progress(out, 'work');
    bar.total(3);
    bar.tick();
    bar.done();
    expect(out.err).toEqual([]);
  });

  it('draws a bar with counts on a terminal and clears it when done', () => {
    const out = io(true);
    const bar = progress(out, 'work');
    bar.total(4);
    bar.tick(2, 'orders');
    expect(out.err.at(-1)).toMatch(/^\rwork \[#+-+\] 2\/4 orders/);
    bar.done();
    expect(out.err.at(-1)).toMatch(/^\r {59}\r$/);
  });

  it('is off when asked (--json)', () => {
    const out = io(true);
    progress(out, 'work', false).done();
    expect(out.err).toEqual([]);
  });
});

describe('colour', () => {
  it('only on a terminal, never with NO_COLOR or TERM=dumb', () => {
    expect(useColour(io(true))).toBe(true);
    expect(useColour(io(false))).toBe(false);
    expect(useColour(io(true, { NO_COLOR: '1' }))).toBe(false);
    expect(useColour(io(true, { TERM: 'dumb' }))).toBe(false);
  });
});
