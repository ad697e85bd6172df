import { getHeapStatistics } from 'node:v8';
import { expect } from 'vitest';
import { ProtocolError, TidemarkError } from '../../../codecs/errors.js';

/**
 * The property every fuzzed decoder must hold: it returns, or it throws a
 * typed error (a ProtocolError), and either way quickly and without
 * building more than the input could describe.
 */

/** Longest any single decode may take before it counts as a hang (generous: 2 shared cores under load). */
export const HANG_MS = 500;

/**
 * Values a decoded message may hold per input byte: every array element
 * costs at least one byte and brings at most a struct's fields and their
 * nested defaults. A length that slipped past its check would build
 * millions of values from a few bytes.
 */
const VALUES_PER_BYTE = 64;

/** Counts the values in a decoded result: object members, array elements, leaves. */
export function countValues(v: unknown, budget = Number.POSITIVE_INFINITY): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0 && n <= budget) {
    const x = stack.pop();
    n++;
    if (x === null || typeof x !== 'object' || Buffer.isBuffer(x)) continue;
    if (Array.isArray(x)) for (const e of x) stack.push(e);
    else for (const e of Object.values(x)) stack.push(e);
  }
  return n;
}

function timed(decode: () => unknown): { result: unknown; error: unknown; ms: number } {
  const started = performance.now();
  try {
    const result = decode();
    return { result, error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { result: undefined, error, ms: performance.now() - started };
  }
}

export interface Tally {
  decoded: number;
  rejected: number;
  slowestMs: number;
  /** Most bytes one decode allocated, when measured. */
  maxAllocated: number;
}

export function newTally(): Tally {
  return { decoded: 0, rejected: 0, slowestMs: 0, maxAllocated: 0 };
}

/**
 * Memory the process holds: the JS heap and the external memory (Buffers)
 * it tracks. From V8 directly: process.memoryUsage() also reads the RSS
 * from /proc, ~25x slower, too slow to call per decode.
 */
export function held(): number {
  const h = getHeapStatistics();
  return h.used_heap_size + h.external_memory;
}

/**
 * Runs one decode of `input` and checks the property. A ProtocolError
 * whose cause is not a TidemarkError is a failure too: the compiled
 * decoders wrap anything unexpected (a RangeError from Buffer, a TypeError)
 * into one, which keeps callers safe but means a check is missing.
 */
export interface CheckOptions {
  /** Inspects a ProtocolError further (e.g. that it names the message). */
  accept?: (err: ProtocolError) => void;
  /** Bound on decoded values per input byte; Infinity where decompression legitimately expands. */
  valuesPerByte?: number;
  /**
   * Whether a ProtocolError may carry a foreign cause: the compression codecs
   * translate zlib's and fzstd's own errors on purpose, keeping them as cause.
   */
  foreignCause?: boolean;
  /**
   * Measure what each decode allocates (JS heap plus Buffers, after minus
   * before, into `tally.maxAllocated`). A collection during the call can
   * only make the figure smaller, so the maximum over many calls is a
   * fair measure; it costs a process.memoryUsage() per call, hence opt-in.
   */
  measure?: boolean;
}

export function checkDecode(
  decode: () => unknown,
  input: Buffer,
  tally: Tally,
  what: () => string,
  options: CheckOptions = {},
): unknown {
  const before = options.measure === true ? held() : 0;
  let { result, error, ms } = timed(decode);
  if (options.measure === true) tally.maxAllocated = Math.max(tally.maxAllocated, held() - before);
  // A garbage collection or a busy neighbour can stall one call; a hang stalls every retry.
  if (ms > HANG_MS) ({ result, error, ms } = timed(decode));
  tally.slowestMs = Math.max(tally.slowestMs, ms);
  const where = () => `${what()} input ${input.toString('hex').slice(0, 400)}`;
  if (ms > HANG_MS) expect.fail(`decode took ${ms.toFixed(0)} ms: ${where()}`);
  if (error === undefined) {
    tally.decoded++;
    const bound = (options.valuesPerByte ?? VALUES_PER_BYTE) * (input.length + 1);
    const values = countValues(result, bound);
    if (values > bound) expect.fail(`decoded ${values}+ values from ${input.length} bytes: ${where()}`);
    return result;
  }
  tally.rejected++;
  if (!(error instanceof ProtocolError)) {
    expect.fail(`untyped ${(error as Error)?.name}: ${(error as Error)?.message}: ${where()}`);
  }
  if (options.foreignCause !== true && error.cause !== undefined && !(error.cause instanceof TidemarkError)) {
    const cause = error.cause as Error;
    expect.fail(`a ${cause.name} (${cause.message}) escaped a check and was wrapped: ${where()}`);
  }
  options.accept?.(error);
  return undefined;
}
