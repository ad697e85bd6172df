/**
 * kafkajs 2.2.4's error classes, with its `name`, `retriable` and extra fields, and the translation of the
 * core's typed errors into them: a kafkajs program's `catch (e) { if (e.name === 'KafkaJSProtocolError') ... }`
 * and `e.retriable` checks keep working. The core error stays reachable as `cause`.
 */
import {
  AuthenticationError,
  ConnectionError,
  isKafkaError,
  RequestTimeoutError,
  TidemarkError,
  UnsupportedMechanismError,
} from '../index.js';

/** What a KafkaJS error is built from: a message, or an error-like object whose fields it copies. */
export type Cause = { message?: string; retriable?: boolean; helpUrl?: string; type?: string; code?: number };

export class KafkaJSError extends Error {
  retriable: boolean;
  helpUrl: string | undefined;
  override cause: unknown;

  constructor(e: string | Cause, { retriable = true, cause }: { retriable?: boolean; cause?: unknown } = {}) {
    const message = typeof e === 'string' ? e : (e.message ?? String(e));
    super(message, { cause });
    this.name = 'KafkaJSError';
    this.retriable = retriable;
    this.helpUrl = typeof e === 'string' ? undefined : e.helpUrl;
    this.cause = cause;
  }
}

export class KafkaJSNonRetriableError extends KafkaJSError {
  constructor(e: string | Cause, { cause }: { cause?: unknown } = {}) {
    super(e, { retriable: false, cause });
    this.name = 'KafkaJSNonRetriableError';
  }
}

/** A broker error code: `type` is Kafka's name for it (UNKNOWN_TOPIC_OR_PARTITION), `code` its number. */
export class KafkaJSProtocolError extends KafkaJSError {
  type: string | undefined;
  code: number | undefined;

  constructor(e: string | Cause, { retriable, cause }: { retriable?: boolean; cause?: unknown } = {}) {
    const c = typeof e === 'string' ? {} : e;
    // As in kafkajs: a cause that does not say is retriable (KafkaJSError's default).
    super(e, { retriable: retriable ?? c.retriable, cause });
    this.type = c.type;
    this.code = c.code;
    this.name = 'KafkaJSProtocolError';
  }
}

export class KafkaJSOffsetOutOfRange extends KafkaJSProtocolError {
  topic: string;
  partition: number;
  constructor(e: string | Cause, { topic, partition }: { topic: string; partition: number }) {
    super(e);
    this.topic = topic;
    this.partition = partition;
    this.name = 'KafkaJSOffsetOutOfRange';
  }
}

export class KafkaJSMemberIdRequired extends KafkaJSProtocolError {
  memberId: string;
  constructor(e: string | Cause, { memberId }: { memberId: string }) {
    super(e);
    this.memberId = memberId;
    this.name = 'KafkaJSMemberIdRequired';
  }
}

export class KafkaJSNumberOfRetriesExceeded extends KafkaJSNonRetriableError {
  retryCount: number;
  retryTime: number;
  constructor(e: Error, { retryCount, retryTime }: { retryCount: number; retryTime: number }) {
    super(e, { cause: e });
    this.stack = `${this.name}\n  Caused by: ${e.stack}`;
    this.retryCount = retryCount;
    this.retryTime = retryTime;
    this.name = 'KafkaJSNumberOfRetriesExceeded';
  }
}

export class KafkaJSConnectionError extends KafkaJSError {
  broker: string | undefined;
  code: string | undefined;
  constructor(e: string | Cause, { broker, code, cause }: { broker?: string; code?: string; cause?: unknown } = {}) {
    super(e, { cause });
    this.broker = broker;
    this.code = code;
    this.name = 'KafkaJSConnectionError';
  }
}

export class KafkaJSConnectionClosedError extends KafkaJSConnectionError {
  host: string | undefined;
  port: number | undefined;
  constructor(e: string | Cause, { host, port }: { host?: string; port?: number } = {}) {
    super(e, { broker: `${host}:${port}` });
    this.host = host;
    this.port = port;
    this.name = 'KafkaJSConnectionClosedError';
  }
}

export class KafkaJSRequestTimeoutError extends KafkaJSError {
  broker: string | undefined;
  correlationId: number | undefined;
  createdAt: number | undefined;
  sentAt: number | undefined;
  pendingDuration: number | undefined;
  constructor(
    e: string | Cause,
    o: { broker?: string; correlationId?: number; createdAt?: number; sentAt?: number; pendingDuration?: number } = {},
  ) {
    super(e);
    this.broker = o.broker;
    this.correlationId = o.correlationId;
    this.createdAt = o.createdAt;
    this.sentAt = o.sentAt;
    this.pendingDuration = o.pendingDuration;
    this.name = 'KafkaJSRequestTimeoutError';
  }
}

export class KafkaJSMetadataNotLoaded extends KafkaJSError {
  constructor(e: string | Cause, o?: { retriable?: boolean; cause?: unknown }) {
    super(e, o);
    this.name = 'KafkaJSMetadataNotLoaded';
  }
}

export class KafkaJSTopicMetadataNotLoaded extends KafkaJSMetadataNotLoaded {
  topic: string | undefined;
  constructor(e: string | Cause, { topic }: { topic?: string } = {}) {
    super(e);
    this.topic = topic;
    this.name = 'KafkaJSTopicMetadataNotLoaded';
  }
}

export class KafkaJSStaleTopicMetadataAssignment extends KafkaJSError {
  topic: string | undefined;
  unknownPartitions: number[] | undefined;
  constructor(e: string | Cause, o: { topic?: string; unknownPartitions?: number[] } = {}) {
    super(e);
    this.topic = o.topic;
    this.unknownPartitions = o.unknownPartitions;
    this.name = 'KafkaJSStaleTopicMetadataAssignment';
  }
}

export class KafkaJSDeleteGroupsError extends KafkaJSError {
  groups: unknown[];
  constructor(e: string | Cause, groups: unknown[] = []) {
    super(e);
    this.groups = groups;
    this.name = 'KafkaJSDeleteGroupsError';
  }
}

export class KafkaJSServerDoesNotSupportApiKey extends KafkaJSNonRetriableError {
  apiKey: number | undefined;
  apiName: string | undefined;
  constructor(e: string | Cause, { apiKey, apiName }: { apiKey?: number; apiName?: string } = {}) {
    super(e);
    this.apiKey = apiKey;
    this.apiName = apiName;
    this.name = 'KafkaJSServerDoesNotSupportApiKey';
  }
}

/** kafkajs's classes that add nothing but their name, made alike. */
function named<B extends new (...args: any[]) => KafkaJSError>(base: B, name: string) {
  const C = class extends base {
    constructor(...args: any[]) {
      super(...args);
      this.name = name;
    }
  };
  Object.defineProperty(C, 'name', { value: name });
  return C;
}

export const KafkaJSBrokerNotFound = named(KafkaJSError, 'KafkaJSBrokerNotFound');
export const KafkaJSPartialMessageError = named(KafkaJSNonRetriableError, 'KafkaJSPartialMessageError');
export const KafkaJSSASLAuthenticationError = named(KafkaJSNonRetriableError, 'KafkaJSSASLAuthenticationError');
export const KafkaJSGroupCoordinatorNotFound = named(KafkaJSNonRetriableError, 'KafkaJSGroupCoordinatorNotFound');
export const KafkaJSNotImplemented = named(KafkaJSNonRetriableError, 'KafkaJSNotImplemented');
export const KafkaJSTimeout = named(KafkaJSNonRetriableError, 'KafkaJSTimeout');
export const KafkaJSLockTimeout = named(KafkaJSTimeout, 'KafkaJSLockTimeout');
export const KafkaJSUnsupportedMagicByteInMessageSet = named(
  KafkaJSNonRetriableError,
  'KafkaJSUnsupportedMagicByteInMessageSet',
);
// kafkajs names both of these 'KafkaJSNonRetriableError' (its own quirk, kept).
export const KafkaJSInvalidVarIntError = named(KafkaJSNonRetriableError, 'KafkaJSNonRetriableError');
export const KafkaJSInvalidLongError = named(KafkaJSNonRetriableError, 'KafkaJSNonRetriableError');

export class KafkaJSDeleteTopicRecordsError extends KafkaJSError {
  partitions: { partition: number; offset: string; error: { retriable?: boolean } | null }[];
  constructor({ partitions }: { partitions: KafkaJSDeleteTopicRecordsError['partitions'] }) {
    const retriable = partitions.filter(({ error }) => error != null).every(({ error }) => error?.retriable === true);
    super('Error while deleting records', { retriable });
    this.name = 'KafkaJSDeleteTopicRecordsError';
    this.partitions = partitions;
  }
}

export class KafkaJSInvariantViolation extends KafkaJSNonRetriableError {
  constructor(e: string | Cause) {
    const message = typeof e === 'string' ? e : e.message;
    super(`Invariant violated: ${message}. This is likely a bug and should be reported.`);
    this.name = 'KafkaJSInvariantViolation';
  }
}

export class KafkaJSCreateTopicError extends KafkaJSProtocolError {
  topic: string;
  constructor(e: string | Cause, topicName: string) {
    super(e);
    this.topic = topicName;
    this.name = 'KafkaJSCreateTopicError';
  }
}

export class KafkaJSAlterPartitionReassignmentsError extends KafkaJSProtocolError {
  topic: string | undefined;
  partition: number | undefined;
  constructor(e: string | Cause, topicName?: string, partition?: number) {
    super(e);
    this.topic = topicName;
    this.partition = partition;
    this.name = 'KafkaJSAlterPartitionReassignmentsError';
  }
}

export class KafkaJSAggregateError extends Error {
  errors: (Error | string)[];
  constructor(message: string, errors: (Error | string)[]) {
    super(message);
    this.errors = errors;
    this.name = 'KafkaJSAggregateError';
  }
}

export class KafkaJSFetcherRebalanceError extends Error {}

export class KafkaJSNoBrokerAvailableError extends KafkaJSError {
  constructor() {
    super('No broker available');
    this.name = 'KafkaJSNoBrokerAvailableError';
  }
}

/** What tidemark cannot do (AWS IAM SASL, socketFactory): thrown by `new Kafka()`, naming the option. */
export class KafkaJSUnsupportedOptionError extends KafkaJSNonRetriableError {
  readonly option: string;
  constructor(option: string, why: string) {
    super(`tidemark/kafkajs does not support the option "${option}": ${why}`);
    this.option = option;
    this.name = 'KafkaJSNonRetriableError';
  }
}

export const isRebalancing = (e: { type?: string }): boolean =>
  e.type === 'REBALANCE_IN_PROGRESS' || e.type === 'NOT_COORDINATOR_FOR_GROUP' || e.type === 'ILLEGAL_GENERATION';

export const isKafkaJSError = (e: unknown): e is KafkaJSError => e instanceof KafkaJSError;

/** kafkajs's name for a broker error code: the core's, except where kafkajs 2.2.4 still uses the old one. */
const KAFKAJS_TYPE_NAMES: Record<string, string> = { NOT_COORDINATOR: 'NOT_COORDINATOR_FOR_GROUP' };

/** The kafkajs error a core error becomes; KafkaJS errors and foreign errors pass through unchanged. */
export function toKafkaJSError(err: unknown): unknown {
  if (err instanceof KafkaJSError || !(err instanceof Error)) return err;
  if (isKafkaError(err)) {
    const type = KAFKAJS_TYPE_NAMES[err.errorName] ?? err.errorName;
    const message = err.brokerMessage ?? err.message;
    return new KafkaJSProtocolError({ message, type, code: err.code, retriable: err.retriable }, { cause: err });
  }
  if (err instanceof AuthenticationError || err instanceof UnsupportedMechanismError) {
    return new KafkaJSSASLAuthenticationError(err.message, { cause: err });
  }
  if (err instanceof RequestTimeoutError) {
    const e = new KafkaJSRequestTimeoutError(err.message, { correlationId: err.correlationId });
    e.cause = err;
    return e;
  }
  if (err instanceof ConnectionError) {
    return new KafkaJSConnectionError(err.message, { broker: err.broker, cause: err });
  }
  if (err instanceof TidemarkError) {
    return err.retriable
      ? new KafkaJSError(err.message, { cause: err })
      : new KafkaJSNonRetriableError(err.message, { cause: err });
  }
  return err;
}

/** Runs a core call, rethrowing what it throws as kafkajs's error. */
export async function translated<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toKafkaJSError(err);
  }
}
