/**
 * Runs checks against a broker and collects pass / fail / skip with evidence. Areas run side by side, the checks
 * of an area one after another (they share scratch topics). A broker that cannot be reached, refuses the
 * credentials or goes away mid-suite ends the run with `aborted` set and the results gathered so far.
 */
import { ConnectionError } from '../network/errors.js';
import { AuthenticationError, TlsError } from '../network/security/errors.js';
import { ALL_CHECKS } from './checks/index.js';
import { nearestRelease } from './known-versions.js';
import { CheckFailed, CheckSkipped, Probe } from './probe.js';
import { type ConformanceTarget, Suite } from './suite.js';
import { AREAS, type Area, type Check, type CheckResult, type ConformanceReport } from './types.js';

export interface ConformanceOptions extends ConformanceTarget {
  /** Only these areas (default: all). */
  only?: readonly Area[];
  /** Leave scratch topics and groups behind. */
  keep?: boolean;
  /** How long one check may take before it fails. Default 30 000. */
  checkTimeoutMs?: number;
  /** Called as each check finishes, for progress output. */
  onResult?: (result: CheckResult) => void;
}

const DEFAULT_CHECK_TIMEOUT_MS = 30_000;

/** Runs the suite; never throws for broker behaviour, only reports it. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const started = Date.now();
  const suite = new Suite(options);
  const only = new Set(options.only ?? AREAS);
  const checks = ALL_CHECKS.filter((c) => only.has(c.area));
  const results: CheckResult[] = [];
  let aborted: string | undefined;
  let abortKind: ConformanceReport['abortKind'];
  let release = '-';
  try {
    await suite.open();
    release = nearestRelease(suite.versions).release;
  } catch (err) {
    aborted = `cannot start: ${oneLine(err)}`;
    abortKind = isSecurityFailure(err) ? 'authentication' : 'unreachable';
  }
  if (aborted === undefined) {
    const byArea = AREAS.filter((a) => only.has(a)).map((area) => checks.filter((c) => c.area === area));
    const state = { aborted: undefined as string | undefined };
    // Settles when the run stops early, so checks still waiting on a broker that went away give up at once.
    let stop: (reason: string) => void = () => {};
    const stopped = new Promise<string>((resolve) => {
      stop = resolve;
    });
    await Promise.all(
      byArea.map(async (areaChecks) => {
        for (const check of areaChecks) {
          if (state.aborted !== undefined) return;
          const result = await runOne(check, suite, options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS, stopped);
          if (state.aborted === undefined && result.result === 'fail' && !(await reachable(suite))) {
            state.aborted = `the broker went away during ${check.id}: ${result.reason}`;
            stop(state.aborted);
          }
          results.push(result);
          options.onResult?.(result);
        }
      }),
    );
    aborted = state.aborted;
    if (aborted !== undefined) abortKind = 'closed';
  }
  const leftBehind = await suite.cleanUp(options.keep === true || aborted !== undefined).catch(() => []);
  const order = new Map(checks.map((c, i) => [c.id, i]));
  results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return {
    broker: options.bootstrap,
    nearestRelease: release,
    results,
    checks: results.length,
    passed: results.filter((r) => r.result === 'pass').length,
    failed: results.filter((r) => r.result === 'fail').length,
    skipped: results.filter((r) => r.result === 'skip').length,
    durationMs: Date.now() - started,
    ...(aborted === undefined ? {} : { aborted, abortKind }),
    leftBehind: aborted === undefined ? leftBehind : [],
  };
}

async function runOne(check: Check, suite: Suite, timeoutMs: number, stopped: Promise<string>): Promise<CheckResult> {
  const probe = new Probe(suite);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailed(`no verdict within ${timeoutMs} ms`)), timeoutMs);
  });
  let result: CheckResult['result'];
  let reason: string;
  try {
    const gaveUp = stopped.then((why) => {
      throw new CheckFailed(`not finished: the run stopped (${why.split(':')[0]})`);
    });
    reason = await Promise.race([check.run(probe), timeout, gaveUp]);
    result = 'pass';
  } catch (err) {
    result = err instanceof CheckSkipped ? 'skip' : 'fail';
    reason =
      err instanceof CheckFailed || err instanceof CheckSkipped
        ? err.message
        : err instanceof ConnectionError
          ? `connection: ${oneLine(err)}`
          : `error: ${oneLine(err)}`;
  } finally {
    clearTimeout(timer);
  }
  return {
    id: check.id,
    area: check.area,
    result,
    reason,
    expected: check.expected,
    spec: check.spec,
    durationMs: Date.now() - started,
    evidence: probe.evidence,
  };
}

/** Whether a new connection to the bootstrap broker still succeeds. */
async function reachable(suite: Suite): Promise<boolean> {
  try {
    const connection = await suite.dedicatedConnection(suite.bootstrap, false);
    await connection.close();
    return true;
  } catch {
    return false;
  }
}

/** Whether the broker refused the credentials or the TLS handshake failed (anywhere in the cause chain). */
function isSecurityFailure(err: unknown): boolean {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    if (e instanceof AuthenticationError || e instanceof TlsError) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}
