import { TidemarkError } from '../codecs/errors.js';
import { type ErrorName, errorInfo } from './error-codes.js';

/** What a code maps to when the broker is newer than this client's table. */
export type KafkaErrorName = ErrorName | 'UNKNOWN_ERROR_CODE';

/**
 * Where an error code came from. `api` and `version` are the request's; the rest names the resource the code was
 * attached to, since one response can carry a different code per topic, partition or group.
 */
export interface KafkaErrorContext {
  api?: string;
  version?: number;
  broker?: number;
  topic?: string;
  partition?: number;
  groupId?: string;
  transactionalId?: string;
  [key: string]: string | number | bigint | boolean | undefined;
}

export interface KafkaErrorOptions {
  /** The response's error message field; nullable on the wire, so `null` is accepted and ignored. */
  message?: string | null;
  context?: KafkaErrorContext;
  cause?: unknown;
}

/** An error code a broker returned in a response. */
export class KafkaError extends TidemarkError {
  override name = 'KafkaError';
  readonly code: number;
  readonly errorName: KafkaErrorName;
  /** The broker's own explanation, when it sent one. */
  readonly brokerMessage: string | undefined;
  readonly context: KafkaErrorContext;

  constructor(code: number, options: KafkaErrorOptions = {}) {
    const info = errorInfo(code);
    const brokerMessage = options.message === null || options.message === '' ? undefined : options.message;
    const context = { ...options.context };
    super(KafkaError.format(code, brokerMessage, context), {
      cause: options.cause,
      // An unknown code gives no basis for assuming the broker state is transient.
      retriable: info?.retriable ?? false,
    });
    this.code = code;
    this.errorName = info?.name ?? 'UNKNOWN_ERROR_CODE';
    this.brokerMessage = brokerMessage;
    this.context = context;
  }

  /** Adds what an outer layer knows (the API, the broker) without overwriting what the inner one recorded. */
  withContext(context: KafkaErrorContext): this {
    for (const [key, value] of Object.entries(context)) {
      if (this.context[key] === undefined) this.context[key] = value;
    }
    this.message = KafkaError.format(this.code, this.brokerMessage, this.context);
    return this;
  }

  private static format(code: number, brokerMessage: string | undefined, context: KafkaErrorContext): string {
    const info = errorInfo(code);
    let text =
      info === undefined
        ? `UNKNOWN_ERROR_CODE (${code}): error code ${code} is not known to this client`
        : `${info.name} (${code}): ${info.message}`;
    if (brokerMessage !== undefined) text += `; broker says: ${brokerMessage}`;
    const where: string[] = [];
    const { api, version, ...rest } = context;
    if (api !== undefined) where.push(version === undefined ? api : `${api} v${version}`);
    else if (version !== undefined) where.push(`v${version}`);
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined) where.push(`${key} ${String(value)}`);
    }
    return where.length === 0 ? text : `${text} (${where.join(', ')})`;
  }
}

/** Builds the error for a response code; codes outside the table give a non-retriable `UNKNOWN_ERROR_CODE`. */
export function kafkaError(code: number, options?: KafkaErrorOptions): KafkaError {
  return new KafkaError(code, options);
}

export function errorName(code: number): KafkaErrorName {
  return errorInfo(code)?.name ?? 'UNKNOWN_ERROR_CODE';
}

/** Whether `err` is a `KafkaError`, and when `name` is given, one with that Kafka name. */
export function isKafkaError(err: unknown, name?: KafkaErrorName): err is KafkaError {
  return err instanceof KafkaError && (name === undefined || err.errorName === name);
}
