import { TidemarkError } from '../../codecs/errors.js';
import { isKafkaError } from '../../protocol/kafka-error.js';
import type { BackoffOptions } from '../cluster/backoff.js';
import { type Deadline, isRetriable, retry } from '../cluster/deadline.js';
import type { Connection } from '../network/connection.js';
import { type BrokerAddress, ConnectionError, RequestTimeoutError } from '../network/errors.js';
import { closeIfTimedOut } from '../network/silent-connection.js';
import {
  type CoordinatorNode,
  type CoordinatorType,
  findCoordinators,
  isCoordinatorMovedCode,
} from './find-coordinator.js';

/** What the coordinator cache needs of the cluster (a narrow view, so tests can stand in for it). */
export interface CoordinatorCluster {
  anyConnection(): Promise<Connection>;
  readonly pool: { get(address: BrokerAddress): Promise<Connection> };
}

export interface CoordinatorsOptions {
  /** Bounds each FindCoordinator request (callers bound their own wait by their deadline). */
  requestTimeoutMs: number;
  /** Delays between rediscoveries. Default 100 ms doubling to 1 s, as Java's retry.backoff(.max).ms. */
  backoff?: BackoffOptions;
}

export const COORDINATOR_BACKOFF: BackoffOptions = { initialMs: 100, maxMs: 1_000 };

type Answer = CoordinatorNode | TidemarkError;

interface Batch {
  keys: string[];
  resolvers: Map<string, (answer: Answer) => void>;
}

/**
 * Which broker coordinates which group or transactional id. Answers are cached until a request to the
 * coordinator says it moved (or its connection fails); then the next call looks it up again, with backoff.
 *
 * Lookups are batched: every key asked for in the same tick goes into one FindCoordinator request per key type
 * (v4+; one request per key on older brokers), and a key already being looked up is not asked for twice.
 */
export class Coordinators {
  private readonly known = new Map<string, CoordinatorNode>();
  private readonly inFlight = new Map<string, Promise<Answer>>();
  private readonly open = new Map<CoordinatorType, Batch>();
  readonly backoff: BackoffOptions;

  constructor(
    private readonly cluster: CoordinatorCluster,
    private readonly options: CoordinatorsOptions,
  ) {
    this.backoff = options.backoff ?? COORDINATOR_BACKOFF;
  }

  /** The cached coordinator of a key, if any. */
  cached(type: CoordinatorType, key: string): CoordinatorNode | undefined {
    return this.known.get(cacheKey(type, key));
  }

  /** Forgets a key's coordinator; with `nodeId`, only if the cache still names that node. */
  invalidate(type: CoordinatorType, key: string, nodeId?: number): void {
    const id = cacheKey(type, key);
    if (nodeId === undefined || this.known.get(id)?.nodeId === nodeId) this.known.delete(id);
  }

  /**
   * The coordinators of `keys`, from the cache or looked up. Keys whose coordinator is not available yet
   * (COORDINATOR_NOT_AVAILABLE while `__consumer_offsets` is created, a broker down) are asked again with
   * backoff until the deadline; an error that is not retriable (GROUP_AUTHORIZATION_FAILED) is thrown.
   */
  async find(
    type: CoordinatorType,
    keys: readonly string[],
    deadline: Deadline,
  ): Promise<Map<string, CoordinatorNode>> {
    const found = new Map<string, CoordinatorNode>();
    let missing: string[] = [];
    for (const key of new Set(keys)) {
      const node = this.cached(type, key);
      if (node === undefined) missing.push(key);
      else found.set(key, node);
    }
    let lastError: unknown;
    for (let round = 0; missing.length > 0; round++) {
      if (round > 0) await deadline.backoff(round, lastError, this.backoff);
      // Lookups resolve with an error instead of rejecting, so only the deadline can end this wait early.
      const answers = await deadline.race(this.lookup(type, missing));
      const still: string[] = [];
      for (const key of missing) {
        const answer = answers.get(key)!;
        if (!(answer instanceof TidemarkError)) {
          this.known.set(cacheKey(type, key), answer);
          found.set(key, answer);
        } else if (isRetriable(answer)) {
          lastError = answer;
          still.push(key);
        } else throw answer;
      }
      missing = still;
    }
    return found;
  }

  /** The open connection to a key's coordinator. */
  async connection(
    type: CoordinatorType,
    key: string,
    deadline: Deadline,
  ): Promise<{ connection: Connection; node: CoordinatorNode }> {
    const node = (await this.find(type, [key], deadline)).get(key)!;
    try {
      const connection = await deadline.race(this.cluster.pool.get({ ...node }));
      return { connection, node };
    } catch (err) {
      this.invalidate(type, key, node.nodeId);
      throw err;
    }
  }

  /**
   * Runs `request` against the key's coordinator, and again (after a new lookup, with backoff) whenever it fails
   * retriably, until the deadline. `request` throws the typed error of the response when it has one; a
   * coordinator error or a broken connection drops the cached coordinator first.
   */
  call<T>(
    type: CoordinatorType,
    key: string,
    deadline: Deadline,
    request: (connection: Connection, node: CoordinatorNode) => Promise<T>,
  ): Promise<T> {
    return retry(
      deadline,
      async () => {
        const { connection, node } = await this.connection(type, key, deadline);
        try {
          return await request(connection, node);
        } catch (err) {
          if (shouldRediscover(err)) this.invalidate(type, key, node.nodeId);
          // Else the retry would get the same silent connection from the pool.
          closeIfTimedOut(connection, err);
          throw err;
        }
      },
      { backoff: this.backoff },
    );
  }

  private lookup(type: CoordinatorType, keys: readonly string[]): Promise<Map<string, Answer>> {
    return Promise.all(keys.map(async (key) => [key, await this.lookupOne(type, key)] as const)).then(
      (entries) => new Map(entries),
    );
  }

  private lookupOne(type: CoordinatorType, key: string): Promise<Answer> {
    const id = cacheKey(type, key);
    const running = this.inFlight.get(id);
    if (running !== undefined) return running;
    let batch = this.open.get(type);
    if (batch === undefined) {
      const fresh: Batch = { keys: [], resolvers: new Map() };
      this.open.set(type, fresh);
      queueMicrotask(() => this.flush(type, fresh));
      batch = fresh;
    }
    const b = batch;
    const answer = new Promise<Answer>((resolve) => b.resolvers.set(key, resolve));
    b.keys.push(key);
    this.inFlight.set(id, answer);
    answer.then(() => this.inFlight.delete(id));
    return answer;
  }

  private async flush(type: CoordinatorType, batch: Batch): Promise<void> {
    if (this.open.get(type) === batch) this.open.delete(type);
    let answers: Map<string, Answer> | undefined;
    let failure: TidemarkError | undefined;
    try {
      const connection = await this.cluster.anyConnection();
      answers = await findCoordinators(connection, type, batch.keys, { timeoutMs: this.options.requestTimeoutMs });
    } catch (err) {
      failure =
        err instanceof TidemarkError
          ? err
          : new TidemarkError(`FindCoordinator failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
    }
    for (const [key, resolve] of batch.resolvers) resolve(answers?.get(key) ?? failure!);
  }
}

/** Whether a failed request means the cached coordinator may be wrong. */
export function shouldRediscover(err: unknown): boolean {
  return (
    (isKafkaError(err) && (isCoordinatorMovedCode(err.code) || err.errorName === 'REQUEST_TIMED_OUT')) ||
    err instanceof ConnectionError ||
    err instanceof RequestTimeoutError
  );
}

function cacheKey(type: CoordinatorType, key: string): string {
  return `${type}\u0000${key}`;
}
