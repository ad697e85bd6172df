import { describe, expect, it } from 'vitest';
import { IllegalTransitionError, type PartitionPhase, TRANSITIONS } from '../../../../src/consumer/partition-phase.js';
import { PartitionState } from '../../../../src/consumer/positions.js';

/** A state brought to `phase` the way the consumer gets it there. */
function inPhase(phase: PartitionPhase): PartitionState {
  const s = new PartitionState('t', 0);
  if (phase === 'fetching') s.moveTo(7n, 2);
  else if (phase === 'resetting') s.requestReset('earliest');
  else if (phase === 'validating') s.seek(5n, 1);
  else if (phase === 'failed') s.fail(new Error('stopped'));
  else if (phase === 'revoking') s.revoke();
  else if (phase === 'reclaiming') s.reclaim();
  expect(s.phase).toBe(phase);
  return s;
}

/** What a refused transition must leave as it was. */
function snapshot(s: PartitionState) {
  return { generation: s.generation, moves: s.moves, position: s.position, paused: s.paused, error: s.error };
}

const PHASES = ['initializing', 'resetting', 'validating', 'fetching', 'failed', 'revoking', 'reclaiming'] as const;

/** An earlier state of the partition, revoked after processing up to `processed` (or nothing). */
function previousState(processed?: bigint): PartitionState {
  const s = inPhase('fetching');
  if (processed !== undefined) s.markProcessed(processed, 2);
  s.committed = 10n;
  s.revoke();
  return s;
}

/** Each transition as the consumer calls it, keyed by its name in TRANSITIONS (pause covers resume too). */
const CALLS: Record<string, (s: PartitionState) => unknown> = {
  found: (s) => s.moveTo(20n, 3),
  confirm: (s) => s.confirm(),
  seek: (s) => s.seek(30n, -1),
  seekValidated: (s) => s.seek(30n, 4),
  requestReset: (s) => s.requestReset('latest'),
  awaitReset: (s) => s.awaitReset(undefined),
  awaitValidation: (s) => s.awaitValidation(),
  fail: (s) => s.fail(new Error('bad batch')),
  revoke: (s) => s.revoke(),
  pause: (s) => s.pause(),
  resume: (s) => s.resume(),
  reclaim: (s) => s.reclaim(),
  takeOver: (s) => s.takeOver(previousState(15n)),
  lookUp: (s) => s.takeOver(previousState()),
};

// Written out by hand (not read from TRANSITIONS) so the table in src is checked, not restated.
// Columns: initializing, resetting, validating, fetching, failed, revoking, reclaiming; '-' is illegal, '=' keeps
// the phase.
const EXPECTED: Record<keyof typeof CALLS, readonly string[]> = {
  found: ['fetching', 'fetching', 'fetching', 'fetching', '-', '-', '-'],
  confirm: ['-', 'fetching', 'fetching', '-', '-', '-', '-'],
  seek: ['fetching', 'fetching', 'fetching', 'fetching', 'fetching', '-', 'fetching'],
  seekValidated: ['validating', 'validating', 'validating', 'validating', 'validating', '-', 'validating'],
  requestReset: ['resetting', 'resetting', 'resetting', 'resetting', 'resetting', '-', 'resetting'],
  awaitReset: ['resetting', '-', 'resetting', 'resetting', '-', '-', '-'],
  awaitValidation: ['-', '-', '-', 'validating', '-', '-', '-'],
  fail: ['failed', 'failed', 'failed', 'failed', '-', '-', '-'],
  revoke: ['revoking', 'revoking', 'revoking', 'revoking', 'revoking', '-', 'revoking'],
  pause: ['=', '=', '=', '=', '=', '-', '='],
  resume: ['=', '=', '=', '=', '=', '-', '='],
  reclaim: ['reclaiming', '-', '-', '-', '-', '-', '-'],
  takeOver: ['-', '-', '-', '-', '-', '-', 'fetching'],
  lookUp: ['-', '-', '-', '-', '-', '-', 'initializing'],
};

const cases = Object.entries(EXPECTED).flatMap(([call, row]) =>
  PHASES.map((phase, i) => ({ call, phase, expected: row[i] })),
);

describe('partition phase transitions', () => {
  it('every transition the table declares is exercised here', () => {
    for (const name of Object.keys(TRANSITIONS)) expect(CALLS).toHaveProperty(name);
  });

  it.each(cases.filter((c) => c.expected !== '-'))('$call from $phase is legal and leads to $expected', (c) => {
    const s = inPhase(c.phase);
    CALLS[c.call](s);
    expect(s.phase).toBe(c.expected === '=' ? c.phase : c.expected);
  });

  it.each(cases.filter((c) => c.expected === '-'))('$call from $phase throws and changes nothing', (c) => {
    const s = inPhase(c.phase);
    const before = snapshot(s);
    let thrown: unknown;
    try {
      CALLS[c.call](s);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toMatchObject({ topic: 't', partition: 0, phase: c.phase, retriable: false });
    expect(s.phase).toBe(c.phase);
    expect(snapshot(s)).toEqual(before);
  });
});

describe('what each transition does beside the phase', () => {
  it('a reset the application asks for is a deliberate move; one forced by the log is only a rewind', () => {
    const asked = inPhase('fetching');
    const forced = inPhase('fetching');
    forced.fetchOffset = 50n;
    const [askedMoves, forcedMoves, forcedGeneration] = [asked.moves, forced.moves, forced.generation];
    asked.requestReset('latest');
    forced.awaitReset(undefined);
    expect([asked.resetTo, asked.moves]).toEqual(['latest', askedMoves + 1]);
    expect([forced.resetTo, forced.moves, forced.generation, forced.fetchOffset]).toEqual([
      undefined,
      forcedMoves,
      forcedGeneration + 1,
      forced.position,
    ]);
  });

  it('a failure keeps its error until a seek clears it; a revoke voids what is in flight', () => {
    const s = inPhase('fetching');
    const error = new Error('corrupt');
    s.fail(error);
    expect(s.error).toBe(error);
    s.seek(9n, -1);
    expect([s.error, s.position, s.fetchOffset]).toEqual([undefined, 9n, 9n]);
    const generation = s.generation;
    s.revoke();
    expect(s.generation).toBe(generation + 1);
  });

  it('pause drops what was fetched ahead once and says whether it changed anything; resume fetches again', () => {
    const s = inPhase('fetching');
    s.fetchOffset = 40n;
    expect(s.pause()).toBe(true);
    expect([s.paused, s.isFetchable, s.fetchOffset]).toEqual([true, false, s.position]);
    const generation = s.generation;
    expect(s.pause()).toBe(false);
    expect(s.generation).toBe(generation);
    s.resume();
    expect([s.paused, s.isFetchable]).toEqual([false, true]);
  });

  it("taking over goes on from the earlier state's processed mark, with its view of the store", () => {
    const s = inPhase('reclaiming');
    expect(s.isFetchable).toBe(false);
    const generation = s.generation;
    s.takeOver(previousState(15n));
    expect([s.position, s.fetchOffset, s.processed(), s.committed]).toEqual([
      15n,
      15n,
      { offset: 15n, leaderEpoch: 2 },
      10n,
    ]);
    expect(s.generation).toBe(generation + 1);
    expect(s.isFetchable).toBe(true);
  });

  it('awaitValidation after a leader change drops what was fetched ahead', () => {
    const s = inPhase('fetching');
    s.fetchOffset = 70n;
    s.awaitValidation();
    expect(s.fetchOffset).toBe(s.position);
  });
});
