import { ProtocolError } from '../../codecs/errors.js';
import { InitProducerId } from '../../protocol/apis/init-producer-id.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import { backoffDelay, sleep } from '../cluster/backoff.js';
import { isRetriable } from '../cluster/deadline.js';
import { ImplausibleResponseError } from '../network/errors.js';
import { closeIfTimedOut } from '../network/silent-connection.js';
import type { ProducerCluster } from './cluster-view.js';
import type { IdempotenceState } from './idempotence.js';
import type { ResolvedProducerOptions } from './options.js';

/** Java's default transaction.timeout.ms, which it sends for idempotent producers too (the broker ignores it). */
const TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * The error codes that end the producer: the cluster will not give this client a producer id, and asking again
 * does not change that. Java ends the producer on any code it does not retry; here any other code is retried,
 * because one flipped bit makes BROKER_NOT_AVAILABLE (8) of NONE (0), and the corruption soak saw that kill a
 * producer for good. Neither of these is one, two or three bit flips away from 0.
 */
const REFUSALS: ReadonlySet<number> = new Set([
  ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
  ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
]);

/**
 * Gets the idempotent producer its id and epoch (InitProducerId with no transactional id, which any broker
 * answers). Failures are retried with backoff for as long as the producer runs (batches meanwhile wait and
 * expire by their delivery timeout): an answer that cannot be read or that names a negative id or epoch (garbled
 * on the way: the next one need not be), and any error code but a refusal (REFUSALS). A refusal ends the
 * producer, and so does a failure the connection says will not change (the client was closed). Records that
 * expire meanwhile carry the last failure as their timeout's cause (`lastError`).
 */
export class ProducerIdFetcher {
  private running = false;
  private stopped = false;
  /**
   * Why the last attempt failed, until one succeeds: a record that expires while the producer has no id names
   * it (a broker that keeps refusing with a code retried here shows as delivery timeouts that say why).
   */
  lastError: unknown;

  constructor(
    private readonly cluster: ProducerCluster,
    private readonly state: IdempotenceState,
    private readonly options: Pick<
      ResolvedProducerOptions,
      'requestTimeoutMs' | 'retryBackoffMs' | 'retryBackoffMaxMs'
    >,
    private readonly on: { onReady: () => void; onFatal: (err: Error) => void },
  ) {}

  /** Starts fetching unless a fetch is running. */
  fetch(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.loop().finally(() => {
      this.running = false;
    });
  }

  stop(): void {
    this.stopped = true;
  }

  private async loop(): Promise<void> {
    const backoff = { initialMs: this.options.retryBackoffMs, maxMs: this.options.retryBackoffMaxMs };
    for (let failures = 1; !this.stopped; failures++) {
      let connection: Awaited<ReturnType<ProducerCluster['anyConnection']>> | undefined;
      try {
        connection = await this.cluster.anyConnection();
        const response = await connection.request(
          InitProducerId,
          { transactionalId: null, transactionTimeoutMs: TRANSACTION_TIMEOUT_MS, producerId: -1n, producerEpoch: -1 },
          { timeoutMs: this.options.requestTimeoutMs },
        );
        if (response.errorCode !== 0) {
          throw new KafkaError(response.errorCode, { context: { api: 'InitProducerId' } });
        }
        if (response.producerId < 0n || response.producerEpoch < 0) {
          // A broker hands out neither (ids and epochs count up from 0): the answer was garbled on the way.
          throw new ImplausibleResponseError(
            `producer id ${response.producerId} with epoch ${response.producerEpoch} in a successful answer`,
            { api: 'InitProducerIdResponse', field: 'producerId' },
          );
        }
        if (this.stopped) return;
        this.lastError = undefined;
        this.state.setProducerId(response.producerId, response.producerEpoch);
        this.on.onReady();
        return;
      } catch (err) {
        if (this.stopped) return;
        this.lastError = err;
        closeIfTimedOut(connection, err);
        const refused = err instanceof KafkaError ? REFUSALS.has(err.code) : !isRetriable(err);
        if (refused && !(err instanceof ProtocolError)) {
          this.on.onFatal(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        await sleep(backoffDelay(failures, backoff));
      }
    }
  }
}
