/**
 * The shapes of the conformance suite: a check is data (id, area, what Apache Kafka does and where that is
 * specified) plus the function that probes a broker for it; a result carries the evidence the probe gathered.
 */
import type { Probe } from './probe.js';

/** The suite's areas, in the order they are reported; `--only <area>` picks one. */
export const AREAS = ['versions', 'list-offsets', 'offset-commit', 'groups', 'fetch', 'produce', 'errors'] as const;
/** One of the suite's areas (versions, ListOffsets, OffsetCommit/Fetch, groups, fetch, produce, errors). */
export type Area = (typeof AREAS)[number];

/** A check's result: the broker behaved as Apache Kafka does, did not, or the check could not run. */
export type Outcome = 'pass' | 'fail' | 'skip';

export interface Check {
  /** Stable id, e.g. `list-offsets.max-timestamp`. */
  readonly id: string;
  readonly area: Area;
  /** What Apache Kafka does, in one sentence. */
  readonly expected: string;
  /** Where that is specified: a protocol guide section or a KIP. */
  readonly spec: string;
  /** Throws CheckFailed / CheckSkipped (through the probe) or returns a one-line reason for a pass. */
  run(probe: Probe): Promise<string>;
}

/** One request the check sent and what came back (or what happened instead). */
export interface Exchange {
  api: string;
  version: number;
  request: unknown;
  response?: unknown;
  /** When no response was decoded: the error, or `closed` for a connection the broker dropped. */
  outcome?: string;
}

/** What one check found: its outcome, the one-line reason, what Kafka does and the exchanges it saw. */
export interface CheckResult {
  id: string;
  area: Area;
  result: Outcome;
  /** One line: why it passed, failed or was skipped. */
  reason: string;
  expected: string;
  spec: string;
  durationMs: number;
  evidence: Exchange[];
}

export interface ConformanceReport {
  /** The bootstrap address the suite was pointed at. */
  broker: string;
  /** The Apache Kafka release whose API ranges are nearest to the broker's. */
  nearestRelease: string;
  results: CheckResult[];
  checks: number;
  passed: number;
  failed: number;
  skipped: number;
  durationMs: number;
  /** Set when the suite stopped early (broker unreachable, closed, authentication failed). */
  aborted?: string;
  /** Why it stopped early: the broker could not be reached, refused the credentials, or went away mid-suite. */
  abortKind?: 'unreachable' | 'authentication' | 'closed';
  /** Scratch topics and groups left behind (with `keep`, or because deleting them failed). */
  leftBehind: string[];
}
