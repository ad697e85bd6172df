import { ProtocolError } from '../../codecs/errors.js';
import { InitProducerId } from '../../protocol/apis/init-producer-id.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import { backoffDelay, sleep } from '../cluster/backoff.js';
import { isRetriable } from '../cluster/deadline.js';
import { closeIfTimedOut } from '../network/silent-connection.js';
import type { ProducerCluster } from './cluster-view.js';
import type { IdempotenceState } from './idempotence.js';
import type { ResolvedProducerOptions } from './options.js';

/** Java's default transaction.timeout.ms, which it sends for idempotent producers too (the broker ignores it). */
const TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * Gets the idempotent producer its id and epoch (InitProducerId with no transactional id, which any broker
 * answers). Retriable failures are retried with backoff for as long as the producer runs; batches meanwhile wait
 * and expire by their delivery timeout, and so is an answer that cannot be read (garbled on the way: the next
 * one need not be). A refusal (e.g. CLUSTER_AUTHORIZATION_FAILED) ends the producer.
 */
export class ProducerIdFetcher {
  private running = false;
  private stopped = false;

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
        if (this.stopped) return;
        this.state.setProducerId(response.producerId, response.producerEpoch);
        this.on.onReady();
        return;
      } catch (err) {
        if (this.stopped) return;
        closeIfTimedOut(connection, err);
        if (!isRetriable(err) && !(err instanceof ProtocolError)) {
          this.on.onFatal(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        await sleep(backoffDelay(failures, backoff));
      }
    }
  }
}
