/** The checks the fault tests rely on must be able to fail: each kind of violation, built by hand. */
import { describe, expect, it } from 'vitest';
import { checkGroup, checkRestarts, type SinkEntry } from '../../integration/faults/ledger.js';

const r = (run: number, partition: number, from: number, to: number): SinkEntry[] =>
  Array.from({ length: to - from }, (_, i) => ({ run, kind: 'r' as const, partition, offset: from + i }));
const c = (run: number, partition: number, offset: number): SinkEntry => ({ run, kind: 'c', partition, offset });
const stored = (...runs: [number, number][]) => new Map(runs.map(([run, offset]) => [run, new Map([[0, offset]])]));

describe('checkRestarts', () => {
  it('accepts a restart at the last commit and counts what was in flight as duplicates', () => {
    const entries = [...r(0, 0, 0, 10), c(0, 0, 6), ...r(0, 0, 10, 12), ...r(1, 0, 6, 20), c(1, 0, 20)];
    const check = checkRestarts(entries, [20], stored([0, 6]));
    expect(check.violations).toEqual([]);
    expect(check).toMatchObject({ processed: 26, lost: 0, duplicated: 6 });
    expect(check.inFlightAtKill.get(0)).toBe(6);
  });

  it('flags a restart past what was processed (lost), below a reported commit, and a gap within a run', () => {
    const lost = checkRestarts([...r(0, 0, 0, 5), ...r(1, 0, 7, 10)], [10], stored([0, 5]));
    expect(lost.violations.join()).toMatch(/\[5, 7\) lost/);
    expect(lost.lost).toBe(2);
    const back = checkRestarts([...r(0, 0, 0, 5), c(0, 0, 5), ...r(1, 0, 2, 10)], [10], stored([0, 5]));
    expect(back.violations.join()).toMatch(/below commit 5/);
    const gap = checkRestarts([...r(0, 0, 0, 3), ...r(0, 0, 4, 10)], [10], new Map());
    expect(gap.violations.join()).toMatch(/went from 2 to 4/);
  });

  it('flags a store holding more than was processed', () => {
    const check = checkRestarts([...r(0, 0, 0, 5), ...r(1, 0, 5, 10)], [10], stored([0, 8]));
    expect(check.violations.join()).toMatch(/stored 0@8 outside/);
  });
});

describe('checkGroup', () => {
  it('excuses duplicates a killed member had in flight, not those of a member that left cleanly', () => {
    const entries = [...r(0, 0, 0, 10), c(0, 0, 7), ...r(1, 0, 7, 20)];
    expect(checkGroup(entries, [20], new Set([0]))).toMatchObject({ lost: 0, duplicated: 3, violations: [] });
    expect(checkGroup(entries, [20], new Set()).violations).toHaveLength(3);
  });

  it('does not excuse a redelivery below the killed member’s own commit, and counts what nobody read', () => {
    const entries = [...r(0, 0, 0, 10), c(0, 0, 10), ...r(1, 0, 8, 15)];
    expect(checkGroup(entries, [20], new Set([0]))).toMatchObject({ lost: 5, duplicated: 2 });
    expect(checkGroup(entries, [20], new Set([0])).violations).toHaveLength(2);
  });
});
