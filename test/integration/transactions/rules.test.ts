import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { InvalidOffsetCommitError } from '../../../src/offsets/errors.js';
import { ConfigError } from '../../../src/options/config-error.js';
import {
  ProducerFencedError,
  TransactionAbortableError,
  TransactionFatalError,
  TransactionStateError,
} from '../../../src/producer/transaction-errors.js';
import { newClient, newTopic, readValues, targets, transactionalProducer, uniqueGroup } from './txn-setup.js';

/**
 * Offsets inside transactions, and the bad input of issue 16: each a clear typed error, and no record becomes
 * visible that the application did not commit.
 */
const standalone = (groupId: string) => ({ groupId, memberId: '', generationId: -1, groupInstanceId: null });

describe.each(targets())('transaction rules ($label)', (target) => {
  let client: Client;
  beforeAll(() => {
    client = newClient(target);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('offsets sent to a transaction become committed with it, and not when it aborts', async () => {
    const topic = await newTopic(client, 'txn-offsets', 1);
    const groupId = uniqueGroup('txn-offsets');
    const tp = [{ topic, partition: 0 }];
    const producer = transactionalProducer(client);
    try {
      await producer.initTransactions();
      await producer.transaction(async (tx) => {
        await tx.send({ topic, partition: 0, value: 'out-1' });
        await tx.sendOffsetsToTransaction([{ topic, partition: 0, offset: 10n, metadata: 'm' }], standalone(groupId));
      });
      expect((await client.offsets.committed(groupId, tp, { requireStable: true }))[0]?.offset).toBe(10n);

      producer.beginTransaction();
      await producer.send({ topic, partition: 0, value: 'out-aborted' });
      await producer.sendOffsetsToTransaction([{ topic, partition: 0, offset: 20n }], standalone(groupId));
      await producer.abortTransaction();
      expect((await client.offsets.committed(groupId, tp, { requireStable: true }))[0]?.offset).toBe(10n);
    } finally {
      await producer.close();
    }
    expect(await readValues(client, topic)).toEqual(['out-1']);
  });

  it('offsets for a group the consumer is not in are refused (abortable); the producer goes on after abort', async () => {
    const topic = await newTopic(client, 'txn-not-member', 1);
    const groupId = uniqueGroup('txn-not-member');
    const producer = transactionalProducer(client);
    try {
      await producer.initTransactions();
      producer.beginTransaction();
      await producer.send({ topic, partition: 0, value: 'never' });
      const ghost = { groupId, memberId: 'ghost-member', generationId: 7, groupInstanceId: null };
      const err = await producer.sendOffsetsToTransaction([{ topic, partition: 0, offset: 5n }], ghost).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TransactionAbortableError);
      expect((err as Error).message).toMatch(
        /TxnOffsetCommit.*(ILLEGAL_GENERATION|UNKNOWN_MEMBER_ID)|(ILLEGAL_GENERATION|UNKNOWN_MEMBER_ID).*TxnOffsetCommit/,
      );
      await expect(producer.commitTransaction()).rejects.toBe(err);
      await producer.abortTransaction();
      await producer.transaction(async (tx) => {
        await tx.send({ topic, partition: 0, value: 'after' });
      });
      const committed = await client.offsets.committed(groupId, [{ topic, partition: 0 }], { requireStable: true });
      expect(committed[0]?.offset ?? null).toBeNull();
    } finally {
      await producer.close();
    }
    expect(await readValues(client, topic)).toEqual(['after']);
  });

  it('refuses calls out of order and bad arguments with typed errors, writing nothing', async () => {
    const topic = await newTopic(client, 'txn-rules', 1);
    const producer = transactionalProducer(client);
    try {
      await expect(producer.send({ topic, value: 'x' })).rejects.toThrow(/before initTransactions/);
      expect(() => producer.beginTransaction()).toThrow(TransactionStateError);
      await producer.initTransactions();
      await expect(producer.initTransactions()).rejects.toBeInstanceOf(TransactionStateError);
      const outside = await producer.send({ topic, value: 'x' }).catch((e: unknown) => e);
      expect(outside).toBeInstanceOf(TransactionStateError);
      expect((outside as Error).message).toMatch(/outside a transaction/);
      await expect(producer.commitTransaction()).rejects.toBeInstanceOf(TransactionStateError);
      await expect(producer.abortTransaction()).rejects.toBeInstanceOf(TransactionStateError);
      producer.beginTransaction();
      expect(() => producer.beginTransaction()).toThrow(TransactionStateError);
      const group = standalone(uniqueGroup('txn-rules'));
      await expect(producer.sendOffsetsToTransaction([{ topic, partition: 0, offset: -1n }], group)).rejects.toThrow(
        InvalidOffsetCommitError,
      );
      const noGroup = { ...group, groupId: '' };
      await expect(producer.sendOffsetsToTransaction([{ topic, partition: 0, offset: 1n }], noGroup)).rejects.toThrow(
        InvalidOffsetCommitError,
      );
      // Bad arguments do not spoil the transaction.
      await producer.send({ topic, partition: 0, value: 'kept' });
      await producer.commitTransaction();
    } finally {
      await producer.close();
    }
    const plain = client.producer();
    try {
      expect(() => plain.beginTransaction()).toThrow(TransactionStateError);
    } finally {
      await plain.close();
    }
    expect(() => client.producer({ transactionalId: '' })).toThrow(ConfigError);
    expect(() => client.producer({ transactionalId: 't', idempotent: false })).toThrow(ConfigError);
    expect(await readValues(client, topic, [0], 'read_uncommitted')).toEqual(['kept']);
  });

  it("a transaction timeout above the broker's maximum is a fatal error at initTransactions()", async () => {
    // transaction.max.timeout.ms defaults to 15 minutes.
    const producer = transactionalProducer(client, { transactionTimeoutMs: 16 * 60_000 });
    try {
      const err = await producer.initTransactions().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TransactionFatalError);
      expect((err as Error).message).toMatch(/INVALID_TRANSACTION_TIMEOUT/);
      await expect(producer.initTransactions()).rejects.toBe(err);
    } finally {
      await producer.close();
    }
  });

  it('a transaction that outlives transactionTimeoutMs is aborted by the coordinator; commit then fails fatally', async () => {
    const topic = await newTopic(client, 'txn-timeout', 1);
    const transactionalId = uniqueGroup('txn-timeout');
    const producer = transactionalProducer(client, { transactionalId, transactionTimeoutMs: 1_000 });
    try {
      await producer.initTransactions();
      producer.beginTransaction();
      await producer.send({ topic, partition: 0, value: 'too-late' });
      // The coordinator looks for timed-out transactions every 10 s (transaction.abort.timed.out.transaction.
      // cleanup.interval.ms); wait until it has aborted this one (the last stable offset moves past it).
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [end] = await client.offsets.latest([{ topic, partition: 0 }], { isolationLevel: 'read_committed' });
        if (end.offset > 0n) break;
        if (Date.now() > deadline) throw new Error('the coordinator did not abort the timed-out transaction');
        await new Promise((r) => setTimeout(r, 500));
      }
      const err = await producer.commitTransaction().catch((e: unknown) => e);
      if (target.major >= 4) {
        // Transactions v2: the coordinator bumped the epoch when it aborted, and refuses to commit what it
        // aborted (Java: InvalidTxnStateException, fatal).
        expect(err).toBeInstanceOf(TransactionFatalError);
        expect((err as Error).message).toMatch(/INVALID_TXN_STATE.*EndTxn/);
      } else {
        expect(err).toBeInstanceOf(ProducerFencedError);
      }
      await expect(producer.send({ topic, partition: 0, value: 'x' })).rejects.toBeInstanceOf(TransactionFatalError);
    } finally {
      await producer.close();
    }
    // The application restarts with the same id and goes on; the timed-out record never becomes visible.
    const restarted = transactionalProducer(client, { transactionalId });
    try {
      await restarted.initTransactions();
      await restarted.transaction((tx) => tx.send({ topic, partition: 0, value: 'after-restart' }));
    } finally {
      await restarted.close();
    }
    expect(await readValues(client, topic)).toEqual(['after-restart']);
    expect(await readValues(client, topic, [0], 'read_uncommitted')).toEqual(['too-late', 'after-restart']);
  }, 60_000);
});
