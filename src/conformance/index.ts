/** The conformance suite's public entry: run it from code, format its report. */
export { ALL_CHECKS } from './checks/index.js';
export { KNOWN_RELEASES } from './known-versions.js';
export { formatJson, formatJunit, formatTable, summaryLine } from './report.js';
export { type ConformanceOptions, runConformance } from './runner.js';
export type { ConformanceTarget } from './suite.js';
export {
  AREAS,
  type Area,
  type Check,
  type CheckResult,
  type ConformanceReport,
  type Exchange,
  type Outcome,
} from './types.js';
