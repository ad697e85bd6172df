import { TidemarkError } from '../../codecs/errors.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { isKafkaError } from '../../protocol/kafka-error.js';

/**
 * The typed errors of a transactional producer, classified as Kafka's Java TransactionManager does:
 * - abortable (TransactionAbortableError): this transaction cannot commit; `abortTransaction()` and go on;
 * - fatal (TransactionFatalError, ProducerFencedError): the producer can write no more; close it;
 * - retriable: retried inside the call until its deadline, never surfaced unless the deadline passes.
 */

/** A call in the wrong transaction state: `send()` outside a transaction, `commitTransaction()` before begin. */
export class TransactionStateError extends TidemarkError {
  override name = 'TransactionStateError';

  constructor(
    message: string,
    readonly transactionalId: string | undefined,
  ) {
    super(message);
  }
}

/** The open transaction failed and will not commit; the application must call `abortTransaction()`. */
export class TransactionAbortableError extends TidemarkError {
  override name = 'TransactionAbortableError';

  constructor(
    readonly transactionalId: string,
    cause: unknown,
  ) {
    super(`transaction of ${transactionalId} must be aborted: ${describe(cause)}`, { cause });
  }
}

/** The producer cannot write any more (fenced, not authorised, broken state); close it and start a new one. */
export class TransactionFatalError extends TidemarkError {
  override name = 'TransactionFatalError';

  constructor(
    readonly transactionalId: string,
    cause: unknown,
    what = 'transactional producer',
  ) {
    super(`${what} ${transactionalId} can no longer write: ${describe(cause)}`, { cause });
  }
}

/**
 * A newer producer with the same transactional id has initialised (or the coordinator bumped the epoch when
 * this producer's transaction timed out): this one is a zombie, and its open transaction was aborted.
 */
export class ProducerFencedError extends TransactionFatalError {
  override name = 'ProducerFencedError';

  constructor(transactionalId: string, cause: unknown) {
    super(transactionalId, cause, 'fenced producer');
  }
}

/**
 * The principal may not use this transactional id (no WRITE on the TransactionalId resource; the broker asks
 * for it at FindCoordinator and InitProducerId): the producer is closed for writes; grant the ACL and start a
 * new one.
 */
export class TransactionalIdAuthorizationError extends TransactionFatalError {
  override name = 'TransactionalIdAuthorizationError';

  constructor(transactionalId: string, cause: unknown) {
    super(transactionalId, cause);
  }
}

/** Codes after which the producer must stop writing for good. */
const FATAL_CODES: ReadonlySet<number> = new Set([
  ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
  ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
  ErrorCode.INVALID_TXN_STATE,
  ErrorCode.INVALID_TRANSACTION_TIMEOUT,
  ErrorCode.UNSUPPORTED_VERSION,
  ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT,
  ErrorCode.INVALID_PRODUCER_ID_MAPPING,
  ErrorCode.TRANSACTIONAL_ID_NOT_FOUND,
]);

/**
 * Of those, the ones a Produce answer ends the producer with (Java's maybeTransitionToErrorState): a write
 * refused with INVALID_TXN_STATE (under server-side verification: the partition is in no open transaction of
 * this producer, e.g. one the coordinator aborted) only makes the transaction abortable.
 */
const PRODUCE_FATAL_CODES: ReadonlySet<number> = new Set([
  ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
  ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
  ErrorCode.UNSUPPORTED_VERSION,
  ErrorCode.INVALID_PRODUCER_ID_MAPPING,
]);

/** Where an error came from: a coordinator's answer (transaction calls) or a broker's answer to Produce. */
export type TransactionErrorSource = 'coordinator' | 'produce';

/** Codes meaning a newer epoch exists for this transactional id. */
const FENCED_CODES: ReadonlySet<number> = new Set([ErrorCode.PRODUCER_FENCED, ErrorCode.INVALID_PRODUCER_EPOCH]);

/** The fatal error `err` amounts to, or undefined when it is abortable (or retriable). */
export function fatalErrorFor(
  transactionalId: string,
  err: unknown,
  source: TransactionErrorSource = 'coordinator',
): TransactionFatalError | undefined {
  if (err instanceof TransactionFatalError) return err;
  if (!isKafkaError(err)) return undefined;
  if (FENCED_CODES.has(err.code)) return new ProducerFencedError(transactionalId, err);
  if (err.code === ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED) {
    return new TransactionalIdAuthorizationError(transactionalId, err);
  }
  if ((source === 'produce' ? PRODUCE_FATAL_CODES : FATAL_CODES).has(err.code)) {
    return new TransactionFatalError(transactionalId, err);
  }
  return undefined;
}

/** `err` as the producer reports it: fatal, or (anything else that ended a transaction) abortable. */
export function classifyTransactionError(
  transactionalId: string,
  err: unknown,
  source: TransactionErrorSource = 'coordinator',
): TransactionFatalError | TransactionAbortableError {
  if (err instanceof TransactionAbortableError) return err;
  return fatalErrorFor(transactionalId, err, source) ?? new TransactionAbortableError(transactionalId, err);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
