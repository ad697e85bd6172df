import { describe, expect, expectTypeOf, it } from 'vitest';
import { ProtocolError, TidemarkError } from '../../../codecs/errors.js';
import { ERROR_TABLE, ErrorCode, type ErrorName, errorInfo, errorInfoByName } from '../../../protocol/error-codes.js';
import { errorName, isKafkaError, KafkaError, kafkaError } from '../../../protocol/kafka-error.js';

// Transcribed from Kafka 4.2: Errors.java for names and codes, and the javadoc class hierarchy (subclasses of
// RetriableException, RefreshRetriableException and InvalidMetadataException) for the flag.
const KAFKA_SAMPLE: [number, string, boolean][] = [
  [-1, 'UNKNOWN_SERVER_ERROR', false],
  [1, 'OFFSET_OUT_OF_RANGE', false],
  [2, 'CORRUPT_MESSAGE', true],
  [3, 'UNKNOWN_TOPIC_OR_PARTITION', true],
  [6, 'NOT_LEADER_OR_FOLLOWER', true],
  [7, 'REQUEST_TIMED_OUT', true],
  [8, 'BROKER_NOT_AVAILABLE', false],
  [9, 'REPLICA_NOT_AVAILABLE', true],
  [14, 'COORDINATOR_LOAD_IN_PROGRESS', true],
  [16, 'NOT_COORDINATOR', true],
  [17, 'INVALID_TOPIC_EXCEPTION', false],
  [19, 'NOT_ENOUGH_REPLICAS', true],
  [22, 'ILLEGAL_GENERATION', false],
  [27, 'REBALANCE_IN_PROGRESS', false],
  [29, 'TOPIC_AUTHORIZATION_FAILED', false],
  [36, 'TOPIC_ALREADY_EXISTS', false],
  [41, 'NOT_CONTROLLER', true],
  [47, 'INVALID_PRODUCER_EPOCH', false],
  [51, 'CONCURRENT_TRANSACTIONS', true],
  [56, 'KAFKA_STORAGE_ERROR', true],
  [59, 'UNKNOWN_PRODUCER_ID', false],
  [70, 'FETCH_SESSION_ID_NOT_FOUND', true],
  [74, 'FENCED_LEADER_EPOCH', true],
  [77, 'STALE_BROKER_EPOCH', false],
  [84, 'ELECTION_NOT_NEEDED', true],
  [89, 'THROTTLING_QUOTA_EXCEEDED', true],
  [90, 'PRODUCER_FENCED', false],
  [100, 'UNKNOWN_TOPIC_ID', true],
  [106, 'FETCH_SESSION_TOPIC_ID_ERROR', true],
  [110, 'FENCED_MEMBER_EPOCH', false],
  [113, 'STALE_MEMBER_EPOCH', false],
  [120, 'TRANSACTION_ABORTABLE', false],
  [122, 'SHARE_SESSION_NOT_FOUND', true],
  [124, 'FENCED_STATE_EPOCH', false],
  [129, 'REBOOTSTRAP_REQUIRED', false],
  [132, 'STREAMS_TOPOLOGY_FENCED', false],
  [133, 'SHARE_SESSION_LIMIT_REACHED', true],
  [136, 'CONTROLLER_ID_NOT_REGISTERED', false],
];

// Every code whose Kafka exception is a RetriableException in 4.2; anything else in the table must be false.
const KAFKA_RETRIABLE = [
  2, 3, 5, 6, 7, 9, 13, 14, 15, 16, 19, 20, 41, 51, 56, 70, 71, 72, 74, 75, 78, 80, 83, 84, 88, 89, 100, 103, 106, 122,
  123, 133,
];

describe('error code table', () => {
  it.each(KAFKA_SAMPLE)('code %i is %s, retriable %s', (code, name, retriable) => {
    expect(errorName(code)).toBe(name);
    expect(kafkaError(code).retriable).toBe(retriable);
    expect(errorInfoByName(name)?.code).toBe(code);
  });

  it('marks exactly the codes Kafka treats as retriable', () => {
    const flagged = ERROR_TABLE.filter((e) => e.retriable).map((e) => e.code);
    expect(flagged).toEqual(KAFKA_RETRIABLE);
  });

  it('covers -1 through 136 with no gaps, in order, and no repeated code or name', () => {
    const codes = ERROR_TABLE.map((e) => e.code);
    expect(codes).toEqual(Array.from({ length: 138 }, (_, i) => i - 1));
    expect(new Set(ERROR_TABLE.map((e) => e.name)).size).toBe(ERROR_TABLE.length);
  });

  it('uses Kafka-style names and gives every code a message of its own', () => {
    for (const e of ERROR_TABLE) {
      expect(e.name).toMatch(/^[A-Z][A-Z_]*[A-Z]$/);
      expect(e.message.length).toBeGreaterThan(5);
    }
    expect(new Set(ERROR_TABLE.map((e) => e.message)).size).toBe(ERROR_TABLE.length);
  });

  it('exposes literal codes by name, generated from the same table', () => {
    expect(ErrorCode.NONE).toBe(0);
    expect(ErrorCode.NOT_LEADER_OR_FOLLOWER).toBe(6);
    expect(ErrorCode.OFFSET_OUT_OF_RANGE).toBe(1);
    expect(ErrorCode.UNKNOWN_MEMBER_ID).toBe(25);
    expect(ErrorCode.SHARE_SESSION_LIMIT_REACHED).toBe(133);
    expect(Object.keys(ErrorCode)).toHaveLength(ERROR_TABLE.length);
    for (const e of ERROR_TABLE) expect(ErrorCode[e.name]).toBe(e.code);
    expect(Object.isFrozen(ErrorCode)).toBe(true);
    expectTypeOf(ErrorCode.NOT_COORDINATOR).toEqualTypeOf<16>();
    expectTypeOf<'NOT_COORDINATOR'>().toExtend<ErrorName>();
    expectTypeOf<'NOT_LEADER_FOR_PARTITION'>().not.toExtend<ErrorName>();
  });

  it('knows nothing about codes outside the table', () => {
    expect(errorInfo(137)).toBeUndefined();
    expect(errorInfo(-2)).toBeUndefined();
    expect(errorInfoByName('NOT_LEADER_FOR_PARTITION')).toBeUndefined();
    expect(errorName(9999)).toBe('UNKNOWN_ERROR_CODE');
    expect(kafkaError(9999).retriable).toBe(false);
  });
});

describe('KafkaError', () => {
  it('carries code, name and retriable flag, and is a TidemarkError but not a ProtocolError', () => {
    const err = kafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    expect(err).toBeInstanceOf(KafkaError);
    expect(err).toBeInstanceOf(TidemarkError);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ProtocolError);
    expect(err.name).toBe('KafkaError');
    expect(err.code).toBe(6);
    expect(err.errorName).toBe('NOT_LEADER_OR_FOLLOWER');
    expect(err.retriable).toBe(true);
    expect(kafkaError(ErrorCode.TOPIC_AUTHORIZATION_FAILED).retriable).toBe(false);
  });

  it('turns an unknown code into a non-retriable UNKNOWN_ERROR_CODE that keeps the number', () => {
    const err = kafkaError(4242);
    expect(err.errorName).toBe('UNKNOWN_ERROR_CODE');
    expect(err.code).toBe(4242);
    expect(err.retriable).toBe(false);
    expect(err.message).toContain('4242');
  });

  it('builds the message from the default text alone when nothing else is known', () => {
    expect(kafkaError(3).message).toBe(`UNKNOWN_TOPIC_OR_PARTITION (3): ${errorInfo(3)?.message}`);
  });

  it('adds the broker message and the context, keeping the context as a property', () => {
    const context = { api: 'CreateTopics', topic: 'x', partition: 3 };
    const err = kafkaError(36, { message: 'Topic x already exists.', context });
    expect(err.message).toBe(
      `TOPIC_ALREADY_EXISTS (36): ${errorInfo(36)?.message}; broker says: Topic x already exists. ` +
        '(CreateTopics, topic x, partition 3)',
    );
    expect(err.brokerMessage).toBe('Topic x already exists.');
    expect(err.context).toEqual(context);
    expect(err.context).not.toBe(context);
  });

  it('ignores a null or empty broker message', () => {
    expect(kafkaError(7, { message: null }).brokerMessage).toBeUndefined();
    expect(kafkaError(7, { message: '' }).message).not.toContain('broker says');
  });

  it('shows the API version next to the API and skips undefined context values', () => {
    const err = kafkaError(35, { context: { api: 'Fetch', version: 17, topic: undefined, broker: 2 } });
    expect(err.message).toMatch(/\(Fetch v17, broker 2\)$/);
  });

  it('fills in outer context without overwriting what is already there', () => {
    const err = kafkaError(16, { context: { groupId: 'g' } }).withContext({ api: 'OffsetCommit', groupId: 'other' });
    expect(err.context).toEqual({ groupId: 'g', api: 'OffsetCommit' });
    expect(err.message).toMatch(/\(OffsetCommit, groupId g\)$/);
  });

  it('keeps the cause', () => {
    const cause = new Error('inner');
    expect(kafkaError(-1, { cause }).cause).toBe(cause);
  });
});

describe('isKafkaError', () => {
  it('recognises KafkaErrors and, when asked, a specific name', () => {
    const err: unknown = kafkaError(ErrorCode.REBALANCE_IN_PROGRESS);
    expect(isKafkaError(err)).toBe(true);
    expect(isKafkaError(err, 'REBALANCE_IN_PROGRESS')).toBe(true);
    expect(isKafkaError(err, 'NOT_COORDINATOR')).toBe(false);
    expect(isKafkaError(kafkaError(999), 'UNKNOWN_ERROR_CODE')).toBe(true);
    if (isKafkaError(err)) expectTypeOf(err).toEqualTypeOf<KafkaError>();
  });

  it('rejects other errors and non-errors', () => {
    expect(isKafkaError(new TidemarkError('x'))).toBe(false);
    expect(isKafkaError(new Error('x'))).toBe(false);
    expect(isKafkaError({ code: 6, errorName: 'NOT_LEADER_OR_FOLLOWER' })).toBe(false);
    expect(isKafkaError(undefined)).toBe(false);
  });
});
