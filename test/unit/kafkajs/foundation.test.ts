/**
 * The facade's parts that need no broker, checked against kafkajs 2.2.4 itself: partitioners choose the same
 * partitions (keyed: both hashes; unkeyed: round robin over partitions with a leader), error classes carry the
 * same name, retriable and fields, enums have the same values, and options tidemark cannot honour fail at
 * construction naming the option.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as facade from '../../../src/kafkajs/index.js';

// Loaded as CommonJS programs load it: its errors are spread into module.exports, which ESM named-export
// detection does not see.
const kafkajs = createRequire(import.meta.url)('kafkajs') as typeof import('kafkajs') & Record<string, unknown>;

const partitionMetadata = [0, 1, 2, 3, 4, 5, 6].map((partitionId) => ({
  partitionErrorCode: 0,
  partitionId,
  leader: partitionId === 3 ? -1 : 1,
  replicas: [1],
  isr: [1],
}));

const keys = [
  '',
  'a',
  'ab',
  'abc',
  'abcd',
  'key-0',
  'user-123456',
  'ünïcödé-key',
  Buffer.from([0xff, 0x80, 0x7f, 0x00, 0x01]),
  ...Array.from({ length: 200 }, (_, i) => `k${i * 7919}-${'x'.repeat(i % 13)}`),
];

describe('partitioners', () => {
  it.each(['DefaultPartitioner', 'LegacyPartitioner', 'JavaCompatiblePartitioner'] as const)(
    '%s picks kafkajs 2.2.4 partitions for keyed messages',
    (name) => {
      const ours = facade.Partitioners[name]();
      const theirs = kafkajs.Partitioners[name]();
      let differsFromDefault = 0;
      for (const key of keys) {
        const args = { topic: 't', partitionMetadata, message: { key, value: null } };
        const expected = theirs(args);
        expect(ours(args), `key ${String(key)}`).toBe(expected);
        if (expected !== kafkajs.Partitioners.DefaultPartitioner()(args)) differsFromDefault++;
      }
      // The legacy hash really is a different function (else this test would not tell them apart).
      if (name === 'LegacyPartitioner') expect(differsFromDefault).toBeGreaterThan(50);
    },
  );

  it('round-robins unkeyed messages over partitions with a leader, as kafkajs does', () => {
    for (const name of ['DefaultPartitioner', 'LegacyPartitioner'] as const) {
      const ours = facade.Partitioners[name]();
      const chosen = Array.from({ length: 12 }, () =>
        ours({ topic: 't', partitionMetadata, message: { value: 'v' } as never }),
      );
      expect(chosen).not.toContain(3);
      // Consecutive choices step through the six available partitions.
      const available = [0, 1, 2, 4, 5, 6];
      const at = available.indexOf(chosen[0]);
      expect(chosen).toEqual(chosen.map((_, i) => available[(at + i) % 6]));
      expect(ours({ topic: 't', partitionMetadata, message: { partition: 3, value: 'v' } as never })).toBe(3);
    }
  });
});

describe('errors', () => {
  const names = Object.keys(kafkajs).filter((k) => k.startsWith('KafkaJS'));

  it('exports every KafkaJS* class kafkajs exports', () => {
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(facade, name).toHaveProperty(name);
  });

  it.each(names.filter((n) => !['KafkaJSDeleteTopicRecordsError', 'KafkaJSAggregateError'].includes(n)))(
    '%s has kafkajs name, retriable and message',
    (name) => {
      type Ctor = new (e: unknown, o?: unknown) => Error & { retriable?: boolean };
      const Theirs = (kafkajs as unknown as Record<string, Ctor>)[name];
      const Ours = (facade as unknown as Record<string, Ctor>)[name];
      const args =
        name === 'KafkaJSNumberOfRetriesExceeded' ? [new Error('boom'), { retryCount: 2, retryTime: 9 }] : ['boom', {}];
      const theirs = new Theirs(args[0], args[1]);
      const ours = new Ours(args[0], args[1]);
      expect(ours.name).toBe(theirs.name);
      expect(ours.retriable).toBe(theirs.retriable);
      expect(ours.message).toBe(theirs.message);
      expect(ours).toBeInstanceOf(Error);
    },
  );

  it('KafkaJSProtocolError and KafkaJSDeleteTopicRecordsError carry kafkajs fields', () => {
    const cause = { message: 'm', type: 'UNKNOWN_TOPIC_OR_PARTITION', code: 3, retriable: true };
    for (const mod of [kafkajs, facade] as unknown as (typeof facade)[]) {
      const e = new mod.KafkaJSProtocolError(cause);
      expect([e.name, e.type, e.code, e.retriable]).toEqual([
        'KafkaJSProtocolError',
        'UNKNOWN_TOPIC_OR_PARTITION',
        3,
        true,
      ]);
    }
    const partitions = [{ partition: 0, offset: '1', error: new facade.KafkaJSProtocolError(cause) }];
    const ours = new facade.KafkaJSDeleteTopicRecordsError({ partitions });
    const theirs = new kafkajs.KafkaJSDeleteTopicRecordsError({ partitions } as never);
    expect([ours.name, ours.retriable, ours.message]).toEqual([theirs.name, theirs.retriable, theirs.message]);
  });
});

describe('enums', () => {
  it('logLevel and CompressionTypes have kafkajs values', () => {
    for (const [k, v] of Object.entries(kafkajs.logLevel))
      expect((facade.logLevel as Record<string, unknown>)[k]).toBe(v);
    for (const [k, v] of Object.entries(kafkajs.CompressionTypes)) {
      expect((facade.CompressionTypes as Record<string, unknown>)[k]).toBe(v);
    }
  });
});

describe('Kafka config', () => {
  const brokers = ['127.0.0.1:9'];

  it('refuses AWS IAM SASL and socketFactory at construction, naming the option', () => {
    const aws = () =>
      new facade.Kafka({
        brokers,
        sasl: { mechanism: 'aws', authorizationIdentity: 'x', accessKeyId: 'a', secretAccessKey: 's' },
      });
    expect(aws).toThrow(facade.KafkaJSNonRetriableError);
    expect(aws).toThrow(/sasl\.mechanism/);
    const socket = () => new facade.Kafka({ brokers, socketFactory: () => null });
    expect(socket).toThrow(facade.KafkaJSUnsupportedOptionError);
    expect(socket).toThrow(/socketFactory/);
  });

  it('rejects what kafkajs rejects with KafkaJSNonRetriableError', () => {
    expect(() => new facade.Kafka({ brokers: [] })).toThrow(facade.KafkaJSNonRetriableError);
    expect(() => new facade.Kafka({ brokers, sasl: { mechanism: 'gssapi' } as never })).toThrow(/gssapi/);
    expect(() => new facade.Kafka({ brokers, requestTimeout: -5 })).toThrow(/requestTimeout/);
    expect(() => new facade.Kafka({ brokers }).consumer({} as never)).toThrow(facade.KafkaJSNonRetriableError);
  });

  it('accepts kafkajs options and warns through logCreator about one it does not honour', () => {
    const entries: facade.LogEntry[] = [];
    new facade.Kafka({
      brokers: async () => brokers,
      clientId: 'app',
      ssl: { rejectUnauthorized: false, ciphers: 'HIGH' },
      sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' },
      connectionTimeout: 3000,
      authenticationTimeout: 1000,
      requestTimeout: 25000,
      enforceRequestTimeout: false,
      retry: { retries: 2 },
      logLevel: facade.logLevel.WARN,
      logCreator: () => (entry) => entries.push(entry),
    });
    expect(entries.map((e) => e.log.message)).toEqual([
      'ssl.ciphers is not supported by tidemark/kafkajs and is ignored',
      'enforceRequestTimeout: false is not supported; every request is bounded by requestTimeout',
    ]);
    expect(entries.every((e) => e.label === 'WARN' && e.log.logger === 'kafkajs')).toBe(true);
  });

  it('instrumentation: on() returns a remover and refuses unknown event names', () => {
    const producer = new facade.Kafka({ brokers }).producer();
    const remove = producer.on(producer.events.CONNECT, () => {});
    expect(typeof remove).toBe('function');
    remove();
    expect(() => producer.on('nope', () => {})).toThrow(facade.KafkaJSNonRetriableError);
  });
});
