/**
 * The producer's options: what each means (ProducerOptions), the rule each value must pass (PRODUCER_RULES), and
 * the defaults and cross-checks that turn them into what the producer runs with (resolveProducerOptions).
 */

import {
  CompressionCodec,
  type CompressionCodecName,
  zstdCompressionAvailable,
} from '../../codecs/compression/index.js';
import { ConfigError } from '../options/config-error.js';
import { boolean, checkOptions, func, integer, nonEmptyString, type OptionRules, oneOf } from '../options/rules.js';
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
  /**
   * Bytes per batch (one partition); a larger record gets a batch of its own. Default 16 384. Batch buffers of
   * this size are reused, and up to `highWaterMark` bytes of them (at least two) are kept while unused.
   */
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

const MAX_IDEMPOTENT_IN_FLIGHT = 5;
const CODEC_NAMES = Object.keys(CompressionCodec) as CompressionCodecName[];

/** One rule per option (src/options/rules.ts); the compiler keeps the table and ProducerOptions in step. */
export const PRODUCER_RULES = {
  acks: oneOf(0, 1, -1, 'all'),
  idempotent: boolean,
  compression: (value, option) => {
    oneOf(...CODEC_NAMES)(value, option);
    if (value === 'zstd' && !zstdCompressionAvailable) {
      throw new ConfigError(option, `zstd compression needs Node >= 22.15 (running ${process.version})`);
    }
  },
  // gzip 1-9, zstd down to its negative "fast" levels and up to 22; the codec checks its own range.
  compressionLevel: integer(-131072, 22),
  lingerMs: integer(0),
  batchSize: integer(0),
  bufferMemory: integer(1, Number.MAX_SAFE_INTEGER),
  highWaterMark: integer(1, Number.MAX_SAFE_INTEGER),
  maxBlockMs: integer(0),
  maxRequestSize: integer(1),
  requestTimeoutMs: integer(1),
  deliveryTimeoutMs: integer(1),
  retries: integer(0, Number.POSITIVE_INFINITY),
  retryBackoffMs: integer(0),
  retryBackoffMaxMs: integer(0),
  maxInFlightRequestsPerConnection: integer(1),
  partitioner: func('(record) => partition | undefined'),
  produceVersion: integer(0),
  transactionalId: nonEmptyString,
  transactionTimeoutMs: integer(1),
} satisfies OptionRules<ProducerOptions>;

/** Checks every option like the Java client does, throwing ConfigError naming the first bad one. */
export function resolveProducerOptions(
  options: ProducerOptions = {},
  clientRequestTimeoutMs?: number,
): ResolvedProducerOptions {
  checkOptions<ProducerOptions>(options, PRODUCER_RULES, { kind: 'producer', name: 'options' });
  const acksIn = options.acks ?? 'all';
  const acks = acksIn === 'all' ? -1 : acksIn;
  const resolved: ResolvedProducerOptions = {
    acks,
    idempotent: options.idempotent ?? acks === -1,
    compression: CompressionCodec[options.compression ?? 'none'],
    compressionLevel: options.compressionLevel,
    lingerMs: options.lingerMs ?? 5,
    batchSize: options.batchSize ?? 16_384,
    bufferMemory: options.bufferMemory ?? 32 * 1024 * 1024,
    highWaterMark: options.highWaterMark ?? 1024 * 1024,
    maxBlockMs: options.maxBlockMs ?? 60_000,
    maxRequestSize: options.maxRequestSize ?? 1024 * 1024,
    requestTimeoutMs: options.requestTimeoutMs ?? clientRequestTimeoutMs ?? 30_000,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 120_000,
    retries: options.retries ?? Number.POSITIVE_INFINITY,
    retryBackoffMs: options.retryBackoffMs ?? 100,
    retryBackoffMaxMs: options.retryBackoffMaxMs ?? 1_000,
    maxInFlight: options.maxInFlightRequestsPerConnection ?? MAX_IDEMPOTENT_IN_FLIGHT,
    partitioner: options.partitioner,
    produceVersion: options.produceVersion,
    transactionalId: options.transactionalId,
    transactionTimeoutMs: options.transactionTimeoutMs ?? 60_000,
  };
  if (options.transactionalId !== undefined) {
    if (options.idempotent === false) throw new ConfigError('idempotent', 'a transactional producer is idempotent');
    resolved.idempotent = true;
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
  if (resolved.deliveryTimeoutMs < resolved.lingerMs + resolved.requestTimeoutMs) {
    // As Java: an explicit value that leaves no time for one attempt is a mistake; the default just grows.
    if (options.deliveryTimeoutMs !== undefined) {
      throw new ConfigError('deliveryTimeoutMs', 'must be at least lingerMs + requestTimeoutMs');
    }
    resolved.deliveryTimeoutMs = resolved.lingerMs + resolved.requestTimeoutMs;
  }
  resolved.highWaterMark = Math.min(resolved.highWaterMark, resolved.bufferMemory);
  if (resolved.retryBackoffMaxMs < resolved.retryBackoffMs) resolved.retryBackoffMaxMs = resolved.retryBackoffMs;
  return resolved;
}
