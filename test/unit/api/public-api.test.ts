/**
 * The public API exports what it shows: every type a public signature names (so users can write their own
 * OffsetStore, PartitionAssignor or RebalanceListener, and annotate what they get back), every error class the
 * library can throw (so `instanceof` can tell them apart), and isRetriable. Guards additions made later too:
 * a new option type or error class not exported from src/index.ts fails here, naming the file.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../../../src/index.js';
import { type PublicApiReport, publicApiReport } from './public-api.js';

/**
 * Reached from public signatures but not nameable, on purpose: how protocol/error-codes.ts computes ErrorName
 * (the union of Kafka error names) from its table. Users name ErrorName, which is exported.
 */
const NOT_NAMEABLE = ['Row (protocol/error-codes.ts)', 'TABLE (protocol/error-codes.ts)'];

let report: PublicApiReport;

describe('src/index.ts', () => {
  it('exports every type named in a public signature', () => {
    // Emitting and reading back the declarations of the whole library: seconds on a loaded machine.
    report = publicApiReport();
    expect(report.diagnostics).toEqual([]);
    const missing = report.unexportedTypes.map((t) => `${t.name} (${t.file})`);
    expect(missing.filter((m) => !NOT_NAMEABLE.includes(m))).toEqual([]);
  }, 180_000);

  it('exports every error class of the library', () => {
    expect(report.unexportedErrors.map((t) => `${t.name} (${t.file})`)).toEqual([]);
  });

  it('exports isRetriable and the error classes the issue named, as values', () => {
    expect(api.isRetriable(new api.KafkaError(7))).toBe(true); // REQUEST_TIMED_OUT
    expect(api.isRetriable(new Error('x'))).toBe(false);
    for (const error of [
      api.MaxPollIntervalExceededError,
      api.RebalanceListenerError,
      api.FencedInstanceIdError,
      api.CorruptRecordError,
    ]) {
      expect(error.prototype).toBeInstanceOf(api.TidemarkError);
    }
    expect(report.exported).toEqual(expect.arrayContaining(['Subscription', 'LoadedOffsets', 'CommitOptions']));
  });
});
