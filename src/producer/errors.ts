import { TidemarkError } from '../../codecs/errors.js';

/**
 * The producer is closed: `send()` after `close()`, or a record still undelivered when a `close()` with a
 * timeout gave up on it. `maybeWritten` is true when the record had been sent and no answer came back, so the
 * broker may have appended it.
 */
export class ProducerClosedError extends TidemarkError {
  override name = 'ProducerClosedError';

  constructor(
    message: string,
    readonly maybeWritten = false,
  ) {
    super(message);
  }
}

/**
 * `send()` waited `maxBlockMs` for room in the producer's buffer (or for the topic's metadata) and got none.
 * The record was never appended, so nothing was written. Retriable: the buffer drains as brokers answer.
 */
export class BufferExhaustedError extends TidemarkError {
  override name = 'BufferExhaustedError';

  constructor(
    readonly waitedMs: number,
    readonly bufferMemory: number,
    reason = `no room in the producer's ${bufferMemory}-byte buffer`,
  ) {
    super(`record not appended after ${waitedMs} ms: ${reason}`, { retriable: true });
  }
}

/**
 * A record was not acknowledged within `deliveryTimeoutMs`. When `maybeWritten` is true it had been sent and the
 * outcome is unknown (a lost response); otherwise the broker never accepted it. `cause` is the last error.
 */
export class DeliveryTimeoutError extends TidemarkError {
  override name = 'DeliveryTimeoutError';

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly deliveryTimeoutMs: number,
    readonly maybeWritten: boolean,
    lastError?: unknown,
  ) {
    const last = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
    const outcome = maybeWritten ? ' (it was sent, so it may have been written)' : '';
    super(`record for ${topic}-${partition} not acknowledged within ${deliveryTimeoutMs} ms${outcome}${last}`, {
      cause: lastError,
      retriable: true,
    });
  }
}

/** A record that can never be sent as given: too large, a partition the topic does not have, a bad timestamp. */
export class InvalidRecordError extends TidemarkError {
  override name = 'InvalidRecordError';

  constructor(
    message: string,
    readonly topic?: string,
  ) {
    super(message);
  }
}

/**
 * The broker's answer to a send could not be trusted (garbled on the way, or naming an offset no broker could
 * have given), so the record may well have been written. A producer that is not idempotent does not resend
 * it, since a resend could write it twice; an idempotent one resends (the broker recognises the sequence)
 * and fails with this only when out of retries. `cause` is the protocol error.
 */
export class DeliveryUncertainError extends TidemarkError {
  override name = 'DeliveryUncertainError';
  readonly maybeWritten = true;

  constructor(
    readonly topic: string,
    readonly partition: number,
    cause: Error,
  ) {
    super(
      `record for ${topic}-${partition} may have been written, but the broker's answer was unreadable: ${cause.message}`,
      {
        cause,
      },
    );
  }
}
