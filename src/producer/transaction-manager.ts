import { AddOffsetsToTxn } from '../../protocol/apis/add-offsets-to-txn.js';
import { EndTxn } from '../../protocol/apis/end-txn.js';
import { InitProducerId } from '../../protocol/apis/init-producer-id.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import { sleep } from '../cluster/backoff.js';
import { Deadline } from '../cluster/deadline.js';
import { partitionKey } from '../cluster/partition-errors.js';
import type { Coordinators } from '../coordinator/coordinators.js';
import type { ConsumerGroupMetadata } from '../offsets/group-metadata.js';
import type { OffsetCommit } from '../offsets/offset-store.js';
import type { ProducerBatch } from './batch.js';
import type { IdempotenceState } from './idempotence.js';
import type { ResolvedProducerOptions } from './options.js';
import {
  classifyTransactionError,
  fatalErrorFor,
  TransactionAbortableError,
  type TransactionErrorSource,
  TransactionFatalError,
  TransactionStateError,
} from './transaction-errors.js';
import {
  addPartitionsOnce,
  LAST_CLASSIC,
  TRANSACTION_V2_MAX,
  transactionRequestVersion,
  transactionVersionOf,
} from './transaction-protocol.js';
import { checkTransactionalOffsets, commitTransactionalOffsets } from './txn-offset-commit.js';

/**
 * Where a transactional producer stands (Java's TransactionManager.State, less its internal steps):
 * initTransactions() leads to `ready`; beginTransaction() to `inTransaction`; commit or abort back to `ready`.
 * An abortable failure leaves `abortableError` until abortTransaction(); a fatal one `fatalError` for good.
 */
export type TransactionState =
  | 'uninitialized'
  | 'ready'
  | 'inTransaction'
  | 'committing'
  | 'aborting'
  | 'abortableError'
  | 'fatalError';

/** What the transaction manager needs of the producer around it. */
export interface TransactionHost {
  /** Resolves once every record accepted so far is delivered or has failed. */
  flush(): Promise<void>;
  /** Fails every record not yet sent with `err` and resolves once none is in flight. */
  abortUnsent(err: Error): Promise<void>;
  /** A partition was added: held batches may go. */
  wakeSender(): void;
}

/**
 * A transactional producer's side of the transaction protocol, as Java's TransactionManager does it.
 * InitProducerId with the transactional id fences older producers (it bumps the epoch and aborts their open
 * transaction), and tells which protocol the coordinator speaks (see transaction-protocol.ts):
 * - classic (KIP-98; Kafka 3.9, or 4.x without `transaction.version` 2): each partition is added with
 *   AddPartitionsToTxn before its first batch goes (the sender asks `admit`); offsets go with AddOffsetsToTxn +
 *   TxnOffsetCommit; EndTxn commits or aborts; requests stay at the classic versions (Produce 11 and below).
 * - Transactions v2 (KIP-890): a batch goes at once in Produce v12+, which adds its partition on the broker;
 *   offsets go with TxnOffsetCommit v5 alone; EndTxn v5 ends the transaction and answers with the producer's
 *   next epoch (bumped every transaction, so a late write of the previous one is refused).
 * A coordinator that finalizes v2 between two transactions is followed as Java does: the classic transaction
 * ends, the epoch is bumped with InitProducerId, and the next transaction is a v2 one.
 */
export class TransactionManager {
  state: TransactionState = 'uninitialized';
  /** The error that put the producer in `abortableError` or `fatalError`. */
  private error: TransactionAbortableError | TransactionFatalError | undefined;
  private readonly added = new Set<string>();
  private readonly toAdd = new Map<string, { topic: string; partition: number }>();
  private adding: Promise<void> | undefined;
  private readonly offsetGroups = new Set<string>();
  /** A batch failed after it was sent: its sequence numbers are spent, so the next transaction needs a new epoch. */
  private epochBumpNeeded = false;
  /** EndTxn(commit) got no answer: commitTransaction() may be called again and only resends it. */
  private commitUnanswered = false;
  /** The coordinator speaks Transactions v2 (KIP-890); set by initTransactions(). */
  private v2 = false;
  /** A classic transaction's coordinator finalized v2 since: bump the epoch after EndTxn, then go on in v2. */
  private upgradeToV2 = false;

  constructor(
    readonly transactionalId: string,
    private readonly o: ResolvedProducerOptions,
    private readonly coordinators: Coordinators,
    private readonly idempotence: IdempotenceState,
    private readonly host: TransactionHost,
  ) {}

  /** Why a `send()` cannot go into a transaction now; undefined when it can. */
  sendError(): Error | undefined {
    switch (this.state) {
      case 'inTransaction':
        return undefined;
      case 'uninitialized':
        return this.stateError('send() before initTransactions()');
      case 'ready':
        return this.stateError('send() outside a transaction: call beginTransaction() first');
      case 'abortableError':
      case 'fatalError':
        return this.error;
      default:
        return this.stateError(`send() while the transaction is ${this.state}`);
    }
  }

  /** Gets the producer id and epoch for the transactional id, fencing every older producer that has it. */
  async init(): Promise<void> {
    this.require(['uninitialized'], 'initTransactions()');
    try {
      await this.initProducerId(false);
    } catch (err) {
      throw this.fail(err, false);
    }
    this.state = 'ready';
  }

  begin(): void {
    this.require(['ready'], 'beginTransaction()');
    this.state = 'inTransaction';
  }

  /**
   * The sender asks before a batch's first send: a partition already in the transaction may go; another is
   * added first (in the background, several per request) and the batch waits.
   */
  admit(batch: ProducerBatch): boolean {
    if (this.state !== 'inTransaction' && this.state !== 'committing') return false;
    if (this.v2) this.added.add(partitionKey(batch.topic, batch.partition));
    if (this.added.has(partitionKey(batch.topic, batch.partition))) {
      batch.transactional = true;
      batch.transactionV2 = this.v2;
      return true;
    }
    this.maybeAdd(batch.topic, batch.partition);
    return false;
  }

  /**
   * A record for the partition was appended: start adding the partition now (Java's maybeAddPartition), so
   * that AddPartitionsToTxn overlaps the batch's linger instead of following it. Under v2 the partition is only
   * noted (the transaction has begun, so it ends with EndTxn); its first Produce adds it.
   */
  maybeAdd(topic: string, partition: number): void {
    if (this.state !== 'inTransaction' && this.state !== 'committing') return;
    const key = partitionKey(topic, partition);
    if (this.v2) this.added.add(key);
    if (this.added.has(key) || this.toAdd.has(key)) return;
    this.toAdd.set(key, { topic, partition });
    this.adding ??= this.addPartitions();
  }

  /**
   * A record of the transaction failed: the transaction can no longer commit. Returns what the record's
   * `send()` rejects with: the fatal error when the failure is one (a fenced producer), else `err` itself.
   */
  onRecordFailed(err: unknown): unknown {
    // A failure of its own (not one this manager dealt out to unsent records) may leave a sequence gap.
    if (!(err instanceof TransactionAbortableError || err instanceof TransactionFatalError))
      this.epochBumpNeeded = true;
    if (this.state === 'inTransaction' || this.state === 'committing') this.fail(err, true, 'produce');
    return fatalErrorFor(this.transactionalId, err, 'produce') ?? err;
  }

  /** Adds consumed offsets to the transaction, fenced by the consumer's group generation (KIP-447). */
  async sendOffsets(offsets: readonly OffsetCommit[], group: ConsumerGroupMetadata): Promise<void> {
    checkTransactionalOffsets(offsets, group);
    this.require(['inTransaction'], 'sendOffsetsToTransaction()');
    const deadline = new Deadline(`sendOffsetsToTransaction for ${this.transactionalId}`, this.o.maxBlockMs);
    try {
      // Under v2, TxnOffsetCommit v5 adds the group's offsets partition to the transaction itself.
      if (!this.v2 && !this.offsetGroups.has(group.groupId)) {
        await this.coordinators.call('transaction', this.transactionalId, deadline, async (c) => {
          const r = await c.request(
            AddOffsetsToTxn,
            { ...this.producer(), transactionalId: this.transactionalId, groupId: group.groupId },
            { timeoutMs: this.o.requestTimeoutMs },
          );
          throwIfError(r.errorCode, 'AddOffsetsToTxn');
        });
      }
      this.offsetGroups.add(group.groupId);
      await commitTransactionalOffsets(this.coordinators, deadline, {
        transactionalId: this.transactionalId,
        transactionV2: this.v2,
        ...this.producer(),
        group,
        offsets,
        requestTimeoutMs: this.o.requestTimeoutMs,
      });
    } catch (err) {
      throw this.fail(err, true);
    }
  }

  async commit(): Promise<void> {
    if (this.state === 'abortableError') throw this.error;
    this.require(['inTransaction'], 'commitTransaction()');
    this.state = 'committing';
    await this.host.flush();
    await this.adding;
    if (this.error !== undefined) {
      this.state = this.error instanceof TransactionFatalError ? 'fatalError' : 'abortableError';
      throw this.error;
    }
    try {
      await this.endTxn(true);
      await this.maybeUpgrade();
    } catch (err) {
      // No answer: the commit may have happened; Java lets the application call commitTransaction() again.
      if (!(err instanceof KafkaError) && !(err instanceof TransactionFatalError)) {
        this.commitUnanswered = true;
        this.state = 'inTransaction';
        throw err;
      }
      throw this.fail(err, true);
    }
    this.finish();
  }

  async abort(): Promise<void> {
    this.require(['inTransaction', 'abortableError'], 'abortTransaction()');
    this.state = 'aborting';
    const aborted = new TransactionAbortableError(this.transactionalId, 'abortTransaction() was called');
    await this.host.abortUnsent(this.error ?? aborted);
    await this.adding;
    try {
      // A v2 EndTxn bumped the epoch already (Java's needToTriggerEpochBumpFromClient is false under v2).
      const bumped = await this.endTxn(false);
      if (this.epochBumpNeeded && !bumped && !this.upgradeToV2) {
        await this.initProducerId(true);
        this.idempotence.resetWhereReady();
      }
      await this.maybeUpgrade();
    } catch (err) {
      const e = this.fail(err, false);
      if ((this.state as TransactionState) !== 'fatalError') this.state = 'abortableError';
      throw e;
    }
    this.finish();
  }

  private finish(): void {
    this.added.clear();
    this.offsetGroups.clear();
    this.error = undefined;
    this.epochBumpNeeded = false;
    this.commitUnanswered = false;
    this.state = 'ready';
  }

  /**
   * EndTxn, unless nothing was added (then the coordinator knows of no transaction, as in Java). Resolves true
   * when the answer carried the producer's next epoch (v5+, Transactions v2): sequences restart under it.
   */
  private async endTxn(committed: boolean): Promise<boolean> {
    if (this.added.size === 0 && this.offsetGroups.size === 0 && !this.commitUnanswered) return false;
    const deadline = new Deadline(`EndTxn for ${this.transactionalId}`, this.o.maxBlockMs);
    const r = await this.coordinators.call('transaction', this.transactionalId, deadline, async (c) => {
      const v = transactionRequestVersion(
        c.versionFor(EndTxn),
        LAST_CLASSIC.EndTxn,
        TRANSACTION_V2_MAX.EndTxn,
        this.v2,
      );
      const body = { ...this.producer(), transactionalId: this.transactionalId, committed };
      const response = await c.request(EndTxn, body, { version: v, timeoutMs: this.o.requestTimeoutMs });
      throwIfError(response.errorCode, 'EndTxn');
      if (!this.v2 && transactionVersionOf(c) >= 2) this.upgradeToV2 = true;
      return response;
    });
    if (r.producerId < 0n) return false;
    this.idempotence.setProducerId(r.producerId, r.producerEpoch);
    this.idempotence.resetWhereReady();
    return true;
  }

  /** The coordinator finalized Transactions v2 during a classic transaction: bump the epoch, then use v2. */
  private async maybeUpgrade(): Promise<void> {
    if (!this.upgradeToV2) return;
    await this.initProducerId(true);
    this.idempotence.resetWhereReady();
    this.upgradeToV2 = false;
    this.v2 = true;
  }

  private async initProducerId(bump: boolean): Promise<void> {
    const deadline = new Deadline(`InitProducerId for ${this.transactionalId}`, this.o.maxBlockMs);
    const r = await this.coordinators.call('transaction', this.transactionalId, deadline, async (c) => {
      const current = bump ? this.producer() : { producerId: -1n, producerEpoch: -1 };
      const body = {
        transactionalId: this.transactionalId,
        transactionTimeoutMs: this.o.transactionTimeoutMs,
        ...current,
      };
      const response = await c.request(InitProducerId, body, { timeoutMs: this.o.requestTimeoutMs });
      throwIfError(response.errorCode, 'InitProducerId');
      if (!bump) this.v2 = transactionVersionOf(c) >= 2;
      return response;
    });
    this.idempotence.setProducerId(r.producerId, r.producerEpoch);
  }

  private async addPartitions(): Promise<void> {
    const partitions = [...this.toAdd];
    const deadline = new Deadline(`AddPartitionsToTxn for ${this.transactionalId}`, this.o.deliveryTimeoutMs);
    try {
      await this.coordinators.call('transaction', this.transactionalId, deadline, async (c) => {
        // The previous transaction's markers are still being written (a few ms on a quiet broker): ask again
        // after 5 ms, doubling to Java's 20 ms, rather than after the coordinator backoff (100 ms and up), which
        // would cap short transactions at a few a second.
        for (let waitMs = CONCURRENT_RETRY_MS.first; ; waitMs = Math.min(waitMs * 2, CONCURRENT_RETRY_MS.max)) {
          const err = await addPartitionsOnce(
            c,
            { transactionalId: this.transactionalId, ...this.producer(), requestTimeoutMs: this.o.requestTimeoutMs },
            partitions.map(([, tp]) => tp),
          );
          if (err === undefined) return;
          if (err.code !== CONCURRENT_TRANSACTIONS || deadline.remaining() < waitMs) throw err;
          await sleep(waitMs);
        }
      });
      for (const [key] of partitions) this.added.add(key);
    } catch (err) {
      this.fail(err, true);
    } finally {
      for (const [key] of partitions) this.toAdd.delete(key);
      this.adding = undefined;
      if (this.toAdd.size > 0 && (this.state === 'inTransaction' || this.state === 'committing')) {
        this.adding = this.addPartitions();
      }
      this.host.wakeSender();
    }
  }

  private producer(): { producerId: bigint; producerEpoch: number } {
    return { producerId: this.idempotence.producerId, producerEpoch: this.idempotence.epoch };
  }

  /** Records a failure: fatal ones end the producer; others make the open transaction abortable. */
  private fail(
    err: unknown,
    abortable: boolean,
    source: TransactionErrorSource = 'coordinator',
  ): TransactionAbortableError | TransactionFatalError | Error {
    const e = classifyTransactionError(this.transactionalId, err, source);
    if (e instanceof TransactionFatalError) {
      this.state = 'fatalError';
      this.error = e;
      void this.host.abortUnsent(e);
      return e;
    }
    if (!abortable) return err instanceof Error ? err : e;
    if (this.state === 'inTransaction' || this.state === 'committing') this.state = 'abortableError';
    this.error ??= e;
    if (this.state !== 'aborting') void this.host.abortUnsent(this.error);
    return this.error;
  }

  private require(states: readonly TransactionState[], call: string): void {
    if (states.includes(this.state)) return;
    if (this.state === 'fatalError') throw this.error;
    const cause = this.state === 'abortableError' ? ` (${this.error?.message}; call abortTransaction())` : '';
    throw this.stateError(`${call} is not allowed while the producer is ${this.state}${cause}`);
  }

  private stateError(message: string): TransactionStateError {
    return new TransactionStateError(`${message} [transactional id ${this.transactionalId}]`, this.transactionalId);
  }
}

const CONCURRENT_TRANSACTIONS = 51;
const CONCURRENT_RETRY_MS = { first: 5, max: 20 };

function throwIfError(code: number, api: string): void {
  if (code !== 0) throw new KafkaError(code, { context: { api } });
}
