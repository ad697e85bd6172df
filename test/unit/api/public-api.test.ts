/**
 * The public API exports what it shows: every type a public signature names (so users can write their own
 * OffsetStore, PartitionAssignor or RebalanceListener, and annotate what they get back), every error class the
 * library can throw (so `instanceof` can tell them apart), and isRetriable. Guards additions made later too:
 * a new option type or error class not exported from src/index.ts fails here, naming the file.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../../../src/index.js';
import { type PublicApiReport, publicApiReport } from './public-api.js';

/**
 * Reached from public signatures but not nameable, on purpose: how a type users do name is computed.
 * - protocol/error-codes.ts computes ErrorName (the union of Kafka error names) from its table.
 * - src/admin/acl-codes.ts computes AclOperation, AclPatternType, AclPermission and AclResourceType (unions of
 *   names) from its code tables.
 * - protocol/schema.ts's RequestOf / RequestInput / ResponseOf pick the generated, documented interface (a member
 *   of the exported `Protocol` namespace) when it is the type the definition infers.
 */
const NOT_NAMEABLE = [
  'Row (protocol/error-codes.ts)',
  'TABLE (protocol/error-codes.ts)',
  'OPERATIONS (src/admin/acl-codes.ts)',
  'PATTERN_TYPES (src/admin/acl-codes.ts)',
  'PERMISSIONS (src/admin/acl-codes.ts)',
  'RESOURCE_TYPES (src/admin/acl-codes.ts)',
  'Documented (protocol/schema.ts)',
  'DocumentedInput (protocol/schema.ts)',
  'InputOfField (protocol/schema.ts)',
  'Same (protocol/schema.ts)',
];

/**
 * Error classes that are not part of the API: a conformance check's verdict, thrown inside the check and always
 * caught by the runner (src/conformance/runner.ts, runOne), which turns it into the result's `fail` or `skip`;
 * and a partition phase transition the consumer's own table forbids, which only a consumer bug can raise.
 */
const INTERNAL_ERRORS = [
  'CheckFailed (src/conformance/probe.ts)',
  'CheckSkipped (src/conformance/probe.ts)',
  'IllegalTransitionError (src/consumer/partition-phase.ts)',
];

let report: PublicApiReport;

describe('src/index.ts', () => {
  it('exports every type named in a public signature', () => {
    // Emitting and reading back the declarations of the whole library: seconds on a loaded machine.
    report = publicApiReport();
    expect(report.diagnostics).toEqual([]);
    const missing = report.unexportedTypes.map((t) => `${t.name} (${t.file})`);
    expect(missing.filter((m) => !NOT_NAMEABLE.includes(m))).toEqual([]);
    // The guard still sees through exported aliases to the names they are computed from: each exception is
    // found (so one that no longer applies is removed from the list), and a new unexported name would be too.
    expect(missing.sort()).toEqual([...NOT_NAMEABLE].sort());
  }, 180_000);

  it('exports the generated protocol types as the Protocol namespace, whose members count as exported', () => {
    expect(report.exported).toContain('Protocol');
    expect(report.unexportedTypes.filter((t) => t.file.startsWith(`protocol${path.sep}generated`))).toEqual([]);
  });

  it('exports every error class of the library', () => {
    const missing = report.unexportedErrors.map((t) => `${t.name} (${t.file})`);
    expect(missing.sort()).toEqual([...INTERNAL_ERRORS].sort());
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
