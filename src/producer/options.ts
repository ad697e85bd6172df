import {
  CompressionCodec,
  type CompressionCodecName,
  zstdCompressionAvailable,
} from '../../codecs/compression/index.js';
import { ConfigError } from '../options/config-error.js';
import type { Partitioner } from './partitioner.js';

/** 0: no acknowledgement; 1: the leader wrote it; -1 / 'all': every in-sync replica has it. */
export type Acks = 0 | 1 | -1 | 'all';

export interface ProducerOptions {
  /** Default 'all', as in the Java client. */
  acks?: Acks;
  /**
   * Exactly-once per partition across retries (producer id, epoch and sequence numbers). Default: on, unless
   * `acks` is set to 0 or 1 (then off, as in the Java client since 3.2). Setting it true needs acks 'all'.
   */
  idempotent?: boolean;
  /** Default 'none'. zstd needs a Node with zstd in node:zlib (22.15+). */
  compression?: CompressionCodecName;
  /** Codec level: gzip 1-9, zstd 1-22. */
  compressionLevel?: number;
  /** How long a batch waits for more records before it is sent. Default 5 (Kafka 4.0's default). */
  lingerMs?: number;
  /** Bytes per batch (one partition); a larger record gets a batch of its own. Default 16 384. */
  batchSize?: number;
  /** Bytes of records held before `send()` waits for room. Default 32 MiB. */
  bufferMemory?: number;
  /**
   * Buffered bytes from which `backpressure` is true (`send()` still takes records up to `bufferMemory`). A loop
   * that pauses there lets the sender work while brokers append, instead of filling the whole buffer first.
   * Default 1 MiB (at most `bufferMemory`).
   */
  highWaterMark?: number;
  /** How long `send()` may wait for buffer room or for the topic's metadata. Default 60 000. */
  maxBlockMs?: number;
  /** Largest Produce request, and so the largest record. Default 1 MiB. */
  maxRequestSize?: number;
  /** How long a Produce request may wait for its response (also the broker's ack timeout). Default 30 000. */
  requestTimeoutMs?: number;
  /** Upper bound on the time from `send()` to success or failure, retries included. Default 120 000. */
  deliveryTimeoutMs?: number;
  /** Attempts after the first; retries stop at `deliveryTimeoutMs` anyway. Default unlimited. */
  retries?: number;
  /** First delay before a retry, doubling up to `retryBackoffMaxMs`. Defaults 100 and 1 000. */
  retryBackoffMs?: number;
  retryBackoffMaxMs?: number;
  /** Produce requests in flight per broker. Default 5, the most idempotence allows. */
  maxInFlightRequestsPerConnection?: number;
  /** Chooses partitions before the default does; return undefined to defer to it. */
  partitioner?: Partitioner;
  /** Forces a Produce version (tests). v0-2 cannot carry idempotent batches. */
  produceVersion?: number;
  /**
   * Makes the producer transactional (KIP-98): records are sent inside `beginTransaction()` ...
   * `commitTransaction()` and become visible to read_committed consumers only when it commits. The id names
   * the producer across restarts: `initTransactions()` fences any older producer with the same id.
   * Needs idempotence (the default with acks 'all').
   */
  transactionalId?: string;
  /** How long the coordinator lets a transaction stay open before it aborts it. Default 60 000 (Java's). */
  transactionTimeoutMs?: number;
}

export interface ResolvedProducerOptions {
  acks: 0 | 1 | -1;
  idempotent: boolean;
  compression: number;
  compressionLevel: number | undefined;
  lingerMs: number;
  batchSize: number;
  bufferMemory: number;
  highWaterMark: number;
  maxBlockMs: number;
  maxRequestSize: number;
  requestTimeoutMs: number;
  deliveryTimeoutMs: number;
  retries: number;
  retryBackoffMs: number;
  retryBackoffMaxMs: number;
  maxInFlight: number;
  partitioner: Partitioner | undefined;
  produceVersion: number | undefined;
  transactionalId: string | undefined;
  transactionTimeoutMs: number;
}

const INT32_MAX = 2 ** 31 - 1;
const MAX_IDEMPOTENT_IN_FLIGHT = 5;

const LIMITS: Record<string, [min: number, max: number, fallback: number]> = {
  lingerMs: [0, INT32_MAX, 5],
  batchSize: [0, INT32_MAX, 16_384],
  bufferMemory: [1, Number.MAX_SAFE_INTEGER, 32 * 1024 * 1024],
  highWaterMark: [1, Number.MAX_SAFE_INTEGER, 1024 * 1024],
  maxBlockMs: [0, INT32_MAX, 60_000],
  maxRequestSize: [1, INT32_MAX, 1024 * 1024],
  requestTimeoutMs: [1, INT32_MAX, 30_000],
  deliveryTimeoutMs: [1, INT32_MAX, 120_000],
  retries: [0, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
  retryBackoffMs: [0, INT32_MAX, 100],
  retryBackoffMaxMs: [0, INT32_MAX, 1_000],
  maxInFlightRequestsPerConnection: [1, INT32_MAX, MAX_IDEMPOTENT_IN_FLIGHT],
  transactionTimeoutMs: [1, INT32_MAX, 60_000],
};

const KNOWN = new Set([...Object.keys(LIMITS), 'acks', 'idempotent', 'compression', 'compressionLevel']);
KNOWN.add('partitioner').add('produceVersion').add('transactionalId');

function numberOption(o: Record<string, unknown>, key: string, requestTimeoutMs?: number): number {
  const [min, max, fallback] = LIMITS[key];
  const value = o[key];
  if (value === undefined)
    return key === 'requestTimeoutMs' && requestTimeoutMs !== undefined ? requestTimeoutMs : fallback;
  const integer = Number.isInteger(value) || value === Number.POSITIVE_INFINITY;
  if (typeof value !== 'number' || !integer || value < min || value > max) {
    throw new ConfigError(key, `expected an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** Checks every option like the Java client does, throwing ConfigError naming the first bad one. */
export function resolveProducerOptions(
  options: ProducerOptions = {},
  clientRequestTimeoutMs?: number,
): ResolvedProducerOptions {
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!KNOWN.has(key)) throw new ConfigError(key, 'unknown producer option');
  const n = (key: string) => numberOption(o, key, clientRequestTimeoutMs);

  const acksIn = options.acks ?? 'all';
  if (acksIn !== 0 && acksIn !== 1 && acksIn !== -1 && acksIn !== 'all') {
    throw new ConfigError('acks', `expected 0, 1, -1 or 'all', got ${String(acksIn)}`);
  }
  const acks = acksIn === 'all' ? -1 : acksIn;

  const compressionName = options.compression ?? 'none';
  if (!Object.hasOwn(CompressionCodec, compressionName)) {
    throw new ConfigError('compression', `expected none, gzip, snappy, lz4 or zstd, got ${String(compressionName)}`);
  }
  if (compressionName === 'zstd' && !zstdCompressionAvailable) {
    throw new ConfigError('compression', `zstd compression needs Node >= 22.15 (running ${process.version})`);
  }
  const level = options.compressionLevel;
  if (level !== undefined && (!Number.isInteger(level) || level < -131072 || level > 22)) {
    throw new ConfigError('compressionLevel', `expected an integer level, got ${String(level)}`);
  }

  const resolved: ResolvedProducerOptions = {
    acks,
    idempotent: options.idempotent ?? acks === -1,
    compression: CompressionCodec[compressionName],
    compressionLevel: level,
    lingerMs: n('lingerMs'),
    batchSize: n('batchSize'),
    bufferMemory: n('bufferMemory'),
    highWaterMark: 0,
    maxBlockMs: n('maxBlockMs'),
    maxRequestSize: n('maxRequestSize'),
    requestTimeoutMs: n('requestTimeoutMs'),
    deliveryTimeoutMs: n('deliveryTimeoutMs'),
    retries: n('retries'),
    retryBackoffMs: n('retryBackoffMs'),
    retryBackoffMaxMs: n('retryBackoffMaxMs'),
    maxInFlight: n('maxInFlightRequestsPerConnection'),
    partitioner: options.partitioner,
    produceVersion: options.produceVersion,
    transactionalId: options.transactionalId,
    transactionTimeoutMs: n('transactionTimeoutMs'),
  };
  const tid = options.transactionalId;
  if (tid !== undefined) {
    if (typeof tid !== 'string' || tid === '') throw new ConfigError('transactionalId', 'expected a non-empty string');
    if (options.idempotent === false) throw new ConfigError('idempotent', 'a transactional producer is idempotent');
    resolved.idempotent = true;
  }

  if (options.idempotent !== undefined && typeof options.idempotent !== 'boolean') {
    throw new ConfigError('idempotent', 'expected a boolean');
  }
  if (options.partitioner !== undefined && typeof options.partitioner !== 'function') {
    throw new ConfigError('partitioner', 'expected a function');
  }
  if (resolved.idempotent) {
    // The broker keeps the last five batches per producer and partition to spot duplicates; more in flight
    // could retry a batch it no longer remembers. Fewer than 'all' acks can lose a batch idempotence counted on.
    if (acks !== -1) throw new ConfigError('acks', "idempotence needs acks 'all' (or set idempotent: false)");
    if (resolved.maxInFlight > MAX_IDEMPOTENT_IN_FLIGHT) {
      throw new ConfigError('maxInFlightRequestsPerConnection', 'idempotence allows at most 5');
    }
    if (resolved.produceVersion !== undefined && resolved.produceVersion < 3) {
      throw new ConfigError('produceVersion', 'Produce v0-2 cannot carry idempotent batches (set idempotent: false)');
    }
  }
  const pv = resolved.produceVersion;
  if (pv !== undefined && (!Number.isInteger(pv) || pv < 0)) {
    throw new ConfigError('produceVersion', `expected a version number, got ${String(pv)}`);
  }
  if (resolved.deliveryTimeoutMs < resolved.lingerMs + resolved.requestTimeoutMs) {
    // As Java: an explicit value that leaves no time for one attempt is a mistake; the default just grows.
    if (options.deliveryTimeoutMs !== undefined) {
      throw new ConfigError('deliveryTimeoutMs', 'must be at least lingerMs + requestTimeoutMs');
    }
    resolved.deliveryTimeoutMs = resolved.lingerMs + resolved.requestTimeoutMs;
  }
  resolved.highWaterMark = Math.min(n('highWaterMark'), resolved.bufferMemory);
  if (resolved.retryBackoffMaxMs < resolved.retryBackoffMs) resolved.retryBackoffMaxMs = resolved.retryBackoffMs;
  return resolved;
}
