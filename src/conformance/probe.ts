/**
 * What a check runs with: the suite's broker access plus a record of every request it sends and what came back,
 * and the verdict helpers. A failed expectation throws CheckFailed with a reason that names the difference
 * between the broker's answer and Apache Kafka's.
 */
import { errorInfo } from '../../protocol/error-codes.js';
import type { ApiDef, RequestInput, ResponseOf } from '../../protocol/schema.js';
import type { Connection, RequestOptions } from '../network/connection.js';
import type { Suite } from './suite.js';
import type { Exchange } from './types.js';

/** The broker departs from Apache Kafka; the message says how. */
export class CheckFailed extends Error {
  override name = 'CheckFailed';
}

/** The check does not apply to this broker (it lacks the version or feature); the message says why. */
export class CheckSkipped extends Error {
  override name = 'CheckSkipped';
}

/** Names an error code as Kafka does: `UNKNOWN_MEMBER_ID (25)`. */
export function errorName(code: number): string {
  return code === 0 ? 'NONE (0)' : `${errorInfo(code)?.name ?? 'UNKNOWN_CODE'} (${code})`;
}

/** A value for a reason line: bigints without the `n`, objects as compact JSON. */
export function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value, jsonSafe) ?? String(value));
}

/** JSON replacer for evidence: bigints as strings, buffers as hex (shortened). */
export function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array || (value as { type?: string })?.type === 'Buffer') {
    const bytes = value instanceof Uint8Array ? Buffer.from(value) : Buffer.from((value as { data: number[] }).data);
    const hex = bytes.subarray(0, 64).toString('hex');
    return bytes.length > 64 ? `0x${hex}… (${bytes.length} bytes)` : `0x${hex}`;
  }
  return value;
}

export class Probe {
  readonly evidence: Exchange[] = [];

  constructor(readonly suite: Suite) {}

  /** Sends one request and records it with its response (or the error that replaced the response). */
  async send<A extends ApiDef>(
    connection: Connection,
    api: A,
    body: RequestInput<A>,
    options: RequestOptions = {},
  ): Promise<ResponseOf<A>> {
    const version = options.version ?? connection.versionFor(api);
    const exchange: Exchange = { api: api.name, version, request: body };
    this.evidence.push(exchange);
    try {
      const response = await connection.request(api, body, { ...options, version });
      exchange.response = response;
      return response;
    } catch (err) {
      exchange.outcome = (err as Error).message;
      throw err;
    }
  }

  /** Records an exchange made some other way (raw bytes). */
  note(exchange: Exchange): void {
    this.evidence.push(exchange);
  }

  fail(reason: string): never {
    throw new CheckFailed(reason);
  }

  skip(reason: string): never {
    throw new CheckSkipped(reason);
  }

  expect(condition: boolean, reason: string): asserts condition {
    if (!condition) this.fail(reason);
  }

  /** Fails unless `actual` equals what Apache Kafka gives, naming both. */
  equal<T>(actual: T, kafka: T, what: string): void {
    if (show(actual) !== show(kafka)) this.fail(`${what}: Kafka gives ${show(kafka)}, the broker gave ${show(actual)}`);
  }

  /** Fails unless the error code is the one Apache Kafka answers with, naming both. */
  errorCode(actual: number, kafka: number, what: string): void {
    if (actual !== kafka) this.fail(`${what}: Kafka answers ${errorName(kafka)}, the broker ${errorName(actual)}`);
  }

  /** The highest version of an API both sides speak, or a skip naming what is missing. */
  requireVersion(api: ApiDef, min: number, feature: string): number {
    const range = this.suite.versions.range(api.key);
    if (range === undefined) this.skip(`the broker does not offer ${api.name}, needed for ${feature}`);
    if (range.max < min) this.skip(`${feature} needs ${api.name} v${min}+, the broker offers up to v${range.max}`);
    return this.suite.versions.versionFor(api);
  }
}
