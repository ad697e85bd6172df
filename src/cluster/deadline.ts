import { TidemarkError } from '../../codecs/errors.js';
import { RequestAbortedError } from '../network/errors.js';
import { ConfigError } from '../options/config-error.js';
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF, sleep } from './backoff.js';

/** What every call that may retry accepts: a bound on the whole call, and a way to cancel it. */
export interface CallOptions {
  /** How long the whole call may take, retries and reconnects included. Defaults to the client's request timeout. */
  timeoutMs?: number;
  /** Cancels the call: it rejects with RequestAbortedError, promptly, whatever it was waiting for. */
  signal?: AbortSignal;
}

/** A call with retries ran out of time; `cause` is the last failure it retried, when there was one. */
export class CallTimeoutError extends TidemarkError {
  override name = 'CallTimeoutError';

  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    lastError?: unknown,
  ) {
    const last = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
    super(`${operation} did not complete within ${timeoutMs} ms${last}`, { cause: lastError, retriable: true });
  }
}

/**
 * The time budget and abort signal of one call. Every wait of the call (a request, a reconnect, a backoff
 * sleep, a metadata refresh) is bounded by it, so the call settles by its deadline with a typed error even
 * when the thing it waits for never answers.
 */
export class Deadline {
  readonly at: number;
  /** The failure the call retried last; named by the timeout error when the deadline comes first. */
  private lastError: unknown;

  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    readonly signal?: AbortSignal,
  ) {
    this.at = Date.now() + timeoutMs;
  }

  /** The deadline of a call from its options, checked like client options. */
  static of(operation: string, options: CallOptions, defaultTimeoutMs: number): Deadline {
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 0) {
      throw new ConfigError('timeoutMs', `expected a non-negative integer, got ${String(timeoutMs)}`);
    }
    return new Deadline(operation, timeoutMs, options.signal);
  }

  remaining(): number {
    return Math.max(0, this.at - Date.now());
  }

  /** Aborted, or past due. */
  get isOver(): boolean {
    return this.signal?.aborted === true || Date.now() >= this.at;
  }

  /** Records a failure the call is about to retry, so that a timeout can say what went wrong before it. */
  note(err: unknown): void {
    this.lastError = err;
  }

  /** The error the call settles with once it is over; an error that already says so is passed on as it is. */
  failure(lastError: unknown = this.lastError): TidemarkError {
    if (lastError instanceof CallTimeoutError || lastError instanceof RequestAbortedError) return lastError;
    if (this.signal?.aborted) return new RequestAbortedError(this.operation, undefined, this.signal.reason);
    return new CallTimeoutError(this.operation, this.timeoutMs, lastError);
  }

  /** Throws the call's failure once it is over. */
  check(lastError: unknown = this.lastError): void {
    if (this.isOver) throw this.failure(lastError);
  }

  /**
   * Options for one request of the call: it may not outlive the call, nor the connection's own timeout. Throws
   * once the call is over, so that work still running behind a settled call never sends a request (a commit
   * that the caller was told timed out must not be applied afterwards).
   */
  requestOptions(requestTimeoutMs: number): { timeoutMs: number; signal?: AbortSignal } {
    this.check();
    return { timeoutMs: Math.max(1, Math.min(requestTimeoutMs, this.remaining())), signal: this.signal };
  }

  /**
   * Settles with `work`, or with the call's failure when the deadline passes or the signal fires first. `work`
   * goes on in the background (a connect attempt cannot be cancelled); its late failure is swallowed.
   */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.isOver) {
      work.catch(() => {});
      return Promise.reject(this.failure());
    }
    return new Promise<T>((resolve, reject) => {
      const stop = () => {
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        stop();
        reject(this.failure());
      };
      const timer = setTimeout(onAbort, this.remaining());
      this.signal?.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          stop();
          resolve(value);
        },
        (err: unknown) => {
          stop();
          reject(err);
        },
      );
    });
  }

  /**
   * Waits before retry number `failures`: the backoff delay, cut short by the deadline. Throws the call's
   * failure (naming `lastError`) when the deadline comes first or the signal fires.
   */
  async backoff(failures: number, lastError: unknown, options: BackoffOptions = DEFAULT_BACKOFF): Promise<void> {
    if (lastError !== undefined) this.lastError = lastError;
    this.check(lastError);
    const delay = backoffDelay(failures, options);
    try {
      await sleep(Math.min(delay, this.remaining()), this.signal);
    } catch {
      throw this.failure(lastError);
    }
    this.check(lastError);
  }
}

/** Whether an error says that trying again may succeed. */
export function isRetriable(err: unknown): boolean {
  return err instanceof TidemarkError && err.retriable;
}

export interface RetryOptions {
  backoff?: BackoffOptions;
  /** Which failures to retry; default: those marked retriable. */
  retriable?: (err: unknown) => boolean;
  /** Runs before the backoff of each retry: the place to drop a cached leader or coordinator. */
  onRetry?: (err: unknown) => void;
}

/** Runs `attempt` until it succeeds, fails with an error that is not retriable, or the deadline passes. */
export async function retry<T>(
  deadline: Deadline,
  attempt: (n: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const retriable = options.retriable ?? isRetriable;
  let lastError: unknown;
  for (let n = 1; ; n++) {
    deadline.check(lastError);
    try {
      return await deadline.race(attempt(n));
    } catch (err) {
      if (err instanceof CallTimeoutError || err instanceof RequestAbortedError) throw deadline.failure(err);
      if (deadline.isOver) throw deadline.failure(err);
      if (!retriable(err)) throw err;
      lastError = err;
      options.onRetry?.(err);
      await deadline.backoff(n, err, options.backoff);
    }
  }
}
