import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { KafkaError } from '../../../protocol/kafka-error.js';
import { BackwardCommitError, MemoryOffsetStore } from '../../../src/offsets/index.js';
import { ConfigError } from '../../../src/options/config-error.js';
import type { ProducerBatch } from '../../../src/producer/batch.js';
import { resolveProducerOptions } from '../../../src/producer/options.js';
import { LAST_CLASSIC_TRANSACTIONAL_PRODUCE, produceVersionFor } from '../../../src/producer/produce-request.js';
import type { Producer } from '../../../src/producer/producer.js';
import {
  classifyTransactionError,
  ProducerFencedError,
  TransactionAbortableError,
  TransactionFatalError,
} from '../../../src/producer/transaction-errors.js';
import { runTransaction } from '../../../src/producer/transaction-run.js';
import {
  TransactionalCommitAbortedError,
  TransactionalOffsetStore,
} from '../../../src/producer/transactional-offset-store.js';

/** Logic of the transactional producer that needs no broker; the protocol runs in test/integration/transactions. */
const kafka = (code: number) => new KafkaError(code, { context: { api: 'EndTxn' } });

describe('transaction error classes (as Java TransactionManager)', () => {
  it('fenced epochs are ProducerFencedError, refusals fatal, the rest abortable', () => {
    expect(classifyTransactionError('t', kafka(ErrorCode.PRODUCER_FENCED))).toBeInstanceOf(ProducerFencedError);
    expect(classifyTransactionError('t', kafka(ErrorCode.INVALID_PRODUCER_EPOCH))).toBeInstanceOf(ProducerFencedError);
    const auth = classifyTransactionError('t', kafka(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
    expect(auth).toBeInstanceOf(TransactionFatalError);
    expect(auth).not.toBeInstanceOf(ProducerFencedError);
    expect(classifyTransactionError('t', kafka(ErrorCode.INVALID_TRANSACTION_TIMEOUT))).toBeInstanceOf(
      TransactionFatalError,
    );
    for (const code of [
      ErrorCode.TOPIC_AUTHORIZATION_FAILED,
      ErrorCode.ILLEGAL_GENERATION,
      ErrorCode.UNKNOWN_MEMBER_ID,
    ]) {
      expect(classifyTransactionError('t', kafka(code))).toBeInstanceOf(TransactionAbortableError);
    }
    // Transactions v2 answers: TRANSACTION_ABORTABLE is abortable; INVALID_TXN_STATE is fatal from a coordinator
    // (EndTxn after the coordinator aborted) but only abortable from Produce (verification), as in Java.
    expect(classifyTransactionError('t', kafka(ErrorCode.TRANSACTION_ABORTABLE))).toBeInstanceOf(
      TransactionAbortableError,
    );
    expect(classifyTransactionError('t', kafka(ErrorCode.INVALID_TXN_STATE))).toBeInstanceOf(TransactionFatalError);
    expect(classifyTransactionError('t', kafka(ErrorCode.INVALID_TXN_STATE), 'produce')).toBeInstanceOf(
      TransactionAbortableError,
    );
    expect(classifyTransactionError('t', kafka(ErrorCode.PRODUCER_FENCED), 'produce')).toBeInstanceOf(
      ProducerFencedError,
    );
    expect(
      classifyTransactionError('t', kafka(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED), 'produce'),
    ).toBeInstanceOf(TransactionFatalError);
    const plain = classifyTransactionError('t', new Error('socket closed'));
    expect(plain).toBeInstanceOf(TransactionAbortableError);
    expect(plain.message).toMatch(/t must be aborted: socket closed/);
  });
});

describe('transactional producer options', () => {
  it('a transactional id makes the producer idempotent and is checked', () => {
    const o = resolveProducerOptions({ transactionalId: 'app-1', acks: 'all' });
    expect(o).toMatchObject({ transactionalId: 'app-1', idempotent: true, transactionTimeoutMs: 60_000 });
    expect(() => resolveProducerOptions({ transactionalId: '' })).toThrow(ConfigError);
    expect(() => resolveProducerOptions({ transactionalId: 'x', idempotent: false })).toThrow(/transactional/);
    expect(() => resolveProducerOptions({ transactionalId: 'x', acks: 1 })).toThrow(ConfigError);
    expect(() => resolveProducerOptions({ transactionTimeoutMs: 0 })).toThrow(ConfigError);
  });

  it('a classic transaction sends Produce v11 at most (v12+ asks for Transactions v2); a v2 one goes higher', () => {
    expect(LAST_CLASSIC_TRANSACTIONAL_PRODUCE).toBe(11);
    expect(produceVersionFor(13, undefined, [], () => 'id', true)).toBe(11);
    expect(produceVersionFor(9, undefined, [], () => 'id', true)).toBe(9);
    expect(produceVersionFor(13, undefined, [], () => 'id', false)).toBe(13);
    const batch = (transactionV2: boolean) => ({ topic: 't', transactionV2 }) as unknown as ProducerBatch;
    expect(produceVersionFor(13, undefined, [batch(true), batch(true)], () => 'id', true)).toBe(13);
    expect(produceVersionFor(13, undefined, [batch(true)], () => undefined, true)).toBe(12);
    expect(produceVersionFor(13, undefined, [batch(true), batch(false)], () => 'id', true)).toBe(11);
  });
});

describe('producer.transaction(work)', () => {
  const fakeProducer = () => ({
    beginTransaction: vi.fn(),
    commitTransaction: vi.fn(async () => {}),
    abortTransaction: vi.fn(async () => {}),
    send: vi.fn(async () => ({ topic: 't', partition: 0, offset: 0n, timestamp: 0 })),
    sendOffsetsToTransaction: vi.fn(async () => {}),
  });

  it('commits when the work returns, and returns its value', async () => {
    const p = fakeProducer();
    await expect(runTransaction(p, async (tx) => (await tx.send({ topic: 't', value: 'v' })).offset)).resolves.toBe(0n);
    expect(p.beginTransaction).toHaveBeenCalledOnce();
    expect(p.commitTransaction).toHaveBeenCalledOnce();
    expect(p.abortTransaction).not.toHaveBeenCalled();
  });

  it('aborts and rethrows when the work or the commit throws; a failed abort rides along', async () => {
    const p = fakeProducer();
    const boom = new Error('boom');
    await expect(runTransaction(p, async () => Promise.reject(boom))).rejects.toBe(boom);
    expect(p.commitTransaction).not.toHaveBeenCalled();
    expect(p.abortTransaction).toHaveBeenCalledOnce();

    const q = fakeProducer();
    const commitFailed = new Error('commit failed');
    const abortFailed = new Error('abort failed');
    q.commitTransaction.mockRejectedValueOnce(commitFailed);
    q.abortTransaction.mockRejectedValueOnce(abortFailed);
    const err = await runTransaction(q, async () => 1).catch((e: unknown) => e);
    expect(err).toBe(commitFailed);
    expect((err as { abortError?: unknown }).abortError).toBe(abortFailed);
  });
});

describe('TransactionalOffsetStore', () => {
  function storeWith(state: { value: string }) {
    const producer = {
      options: { transactionalId: 'app' },
      get transactionState() {
        return state.value;
      },
      beginTransaction: vi.fn(() => {
        state.value = 'inTransaction';
      }),
      sendOffsetsToTransaction: vi.fn(async () => {}),
      commitTransaction: vi.fn(async () => {
        state.value = 'ready';
      }),
      abortTransaction: vi.fn(async () => {
        state.value = 'ready';
      }),
    };
    const store = new TransactionalOffsetStore(producer as unknown as Producer, new MemoryOffsetStore());
    return { producer, store };
  }
  const tp = { topic: 't', partition: 0 };

  it('commits offsets in the transaction with the generation, then opens the next one', async () => {
    const state = { value: 'ready' };
    const { producer, store } = storeWith(state);
    await store.load('g', [tp]);
    expect(state.value).toBe('inTransaction');
    const generation = { groupId: 'g', generationId: 4, memberId: 'm-1', groupInstanceId: 'i-1' };
    await store.commit('g', [{ ...tp, offset: 10n }], { generation });
    expect(producer.sendOffsetsToTransaction).toHaveBeenCalledWith([{ ...tp, offset: 10n }], {
      groupId: 'g',
      memberId: 'm-1',
      generationId: 4,
      groupInstanceId: 'i-1',
    });
    expect(producer.commitTransaction).toHaveBeenCalledOnce();
    expect(state.value).toBe('inTransaction');
    await store.commit('g', [{ ...tp, offset: 12n }]);
    expect(producer.sendOffsetsToTransaction).toHaveBeenLastCalledWith([{ ...tp, offset: 12n }], {
      groupId: 'g',
      memberId: '',
      generationId: -1,
      groupInstanceId: null,
    });
  });

  it('refuses offsets that go backwards before anything is sent, unless the user seeked', async () => {
    const { producer, store } = storeWith({ value: 'ready' });
    await store.commit('g', [{ ...tp, offset: 10n }]);
    await expect(store.commit('g', [{ ...tp, offset: 5n }])).rejects.toBeInstanceOf(BackwardCommitError);
    expect(producer.sendOffsetsToTransaction).toHaveBeenCalledTimes(1);
    await store.commit('g', [{ ...tp, offset: 5n }], { allowBackward: true });
    expect(producer.sendOffsetsToTransaction).toHaveBeenCalledTimes(2);
  });

  it('a failed commit aborts the transaction and every later commit is refused', async () => {
    const state = { value: 'ready' };
    const { producer, store } = storeWith(state);
    producer.commitTransaction.mockImplementationOnce(async () => {
      state.value = 'abortableError';
      throw new TransactionAbortableError('app', 'a record failed');
    });
    await expect(store.commit('g', [{ ...tp, offset: 3n }])).rejects.toBeInstanceOf(TransactionalCommitAbortedError);
    expect(producer.abortTransaction).toHaveBeenCalledOnce();
    await expect(store.commit('g', [{ ...tp, offset: 4n }])).rejects.toBeInstanceOf(TransactionalCommitAbortedError);
    expect(producer.sendOffsetsToTransaction).toHaveBeenCalledTimes(1);
  });
});
