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

/**
 * A measured decode that seems to allocate more than this is measured once
 * more and the smaller figure kept. Bun (JSC) accounts memory late and in
 * bulk (three 16 MiB Buffers in a row read as 0, 0 and 64 MiB), so a decode
 * can be charged for what earlier ones allocated: up to 7.3 MiB on Bun where
 * Node's largest is 321 KiB. The decode is deterministic, so an allocation
 * it really makes (an unchecked length) is there again on the second run; a
 * late report is not. The same lateness means Bun can also charge a decode
 * nothing: there the per-decode figure is indicative only, and the bound is
 * proven on Node (the decoders are the same code on every runtime).
 * On Bun a full collection comes before the second run (settleMemory): without
 * it the late charge can land in the second run too. Measured on the gzip
 * section's mutations with a megabyte of garbage left now and then, as the
 * suite's earlier tests leave it: second runs still charged up to 13 MiB
 * without the collection, 81 KiB with it; a CI run failed that way
 * (3.5 MiB against the 3 MiB bound).
 */
const REMEASURE_ABOVE = 1024 * 1024;

/** Bun only: a synchronous full collection, which settles the memory JSC has yet to account. */
const settleMemory: () => void =
  process.versions.bun === undefined
    ? () => {}
    : () => (globalThis as unknown as { Bun: { gc(sync: boolean): void } }).Bun.gc(true);

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
 * On Bun the two swap: its node:v8 getHeapStatistics() walks the whole JSC
 * heap (5-9 ms a call, measured; the length-bomb run could not finish),
 * while its process.memoryUsage() returns the same two figures (JSC's heap
 * size and extra memory, equal to the last byte) in about 50 µs.
 */
export const held: () => number =
  process.versions.bun === undefined
    ? () => {
        const h = getHeapStatistics();
        return h.used_heap_size + h.external_memory;
      }
    : () => {
        const m = process.memoryUsage();
        return m.heapUsed + m.external;
      };

/**
 * Memory held in Buffers (ArrayBuffers outside the JS heap). Node counts them in process.memoryUsage().arrayBuffers;
 * Bun and Deno report 0 there, so the figure would prove nothing: Deno counts them in node:v8's external_memory
 * (its process.memoryUsage() also reads the RSS, about 2.5 ms a call, too slow per chunk), Bun in
 * process.memoryUsage().external (late, see REMEASURE_ABOVE).
 */
export const bufferMemory: () => number =
  process.versions.bun !== undefined
    ? () => process.memoryUsage().external
    : process.versions.deno !== undefined
      ? () => getHeapStatistics().external_memory
      : () => process.memoryUsage().arrayBuffers;

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
  let before = options.measure === true ? held() : 0;
  let { result, error, ms } = timed(decode);
  if (options.measure === true) {
    let allocated = held() - before;
    if (allocated > REMEASURE_ABOVE) {
      settleMemory();
      before = held();
      timed(decode);
      allocated = Math.min(allocated, held() - before);
    }
    tally.maxAllocated = Math.max(tally.maxAllocated, allocated);
  }
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
