/**
 * kafkajs's `producer()` on the core Producer. `send({ topic, messages })` chooses each message's partition with the
 * kafkajs partitioner (so keyed and unkeyed records land where kafkajs would put them), hands the call's records to
 * the core in one `sendBatch()`, and answers with kafkajs's RecordMetadata[] (one entry per partition written, string
 * offsets). Per-send `acks` and `compression` go to the core's per-send options; `acks: -1` (kafkajs's default) goes
 * through an idempotent core producer and `acks` 0 or 1 through a plain one (an idempotent producer sends with acks
 * 'all' only), each made on first use and kept per `timeout` (the core's request timeout).
 */
import type {
  Client,
  ClientConfig,
  RecordMetadata as CoreMetadata,
  Producer as CoreProducer,
  ProducerRecord as CoreRecord,
  SendOptions,
} from '../index.js';
import { CODEC_NAMES, CompressionTypes, type Logger } from './constants.js';
import { KafkaJSNonRetriableError, translated } from './errors.js';
import { Instrumentation } from './instrumentation.js';
import {
  DefaultPartitioner,
  type ICustomPartitioner,
  type PartitionMetadata,
  partitionMetadataOf,
} from './partitioners.js';
import type { IHeaders } from './payloads.js';
import { createTransaction, type Transaction } from './transaction.js';

export interface Message {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  partition?: number;
  headers?: IHeaders;
  timestamp?: string;
}

export interface ProducerRecord {
  topic: string;
  messages: Message[];
  acks?: number;
  timeout?: number;
  compression?: CompressionTypes;
}

export interface ProducerBatch {
  acks?: number;
  timeout?: number;
  compression?: CompressionTypes;
  topicMessages?: { topic: string; messages: Message[] }[];
}

export interface RecordMetadata {
  topicName: string;
  partition: number;
  errorCode: number;
  offset?: string;
  timestamp?: string;
  baseOffset?: string;
  logAppendTime?: string;
  logStartOffset?: string;
}

export interface ProducerConfig {
  createPartitioner?: ICustomPartitioner;
  retry?: unknown;
  metadataMaxAge?: number;
  allowAutoTopicCreation?: boolean;
  idempotent?: boolean;
  transactionalId?: string;
  transactionTimeout?: number;
  maxInFlightRequests?: number;
}

/** kafkajs headers (an object; an array value repeats the key) as the core's ordered list. */
export function headersToCore(headers: IHeaders | undefined): { key: string; value: Buffer | string }[] {
  const out: { key: string; value: Buffer | string }[] = [];
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push({ key, value: v });
  }
  return out;
}

function checkAcks(acks: number): void {
  if (acks !== -1 && acks !== 0 && acks !== 1)
    throw new KafkaJSNonRetriableError(`acks: expected -1, 0 or 1, got ${acks}`);
}

/** What `send` and `sendBatch` share, for the producer and for its transactions. */
export class MessageSender {
  private readonly producers = new Map<string, CoreProducer>();
  private readonly partition: ReturnType<ICustomPartitioner>;

  constructor(
    private readonly client: () => Client,
    private readonly config: ProducerConfig,
    createPartitioner: ICustomPartitioner | undefined,
    private readonly fixed?: () => CoreProducer,
  ) {
    this.partition = (createPartitioner ?? DefaultPartitioner)();
  }

  /** The core producer for these acks and timeout (the transactional one, when there is one). */
  private producerFor(acks: number, timeout: number | undefined): CoreProducer {
    if (this.fixed !== undefined) return this.fixed();
    const idempotent = acks === -1;
    const key = `${idempotent}/${timeout}`;
    let producer = this.producers.get(key);
    if (producer === undefined) {
      producer = this.client().producer({
        acks: idempotent ? 'all' : 1,
        idempotent,
        ...(timeout === undefined ? {} : { requestTimeoutMs: timeout }),
        ...(this.config.maxInFlightRequests === undefined
          ? {}
          : { maxInFlightRequestsPerConnection: this.config.maxInFlightRequests }),
      });
      this.producers.set(key, producer);
    }
    return producer;
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    const acks = batch.acks ?? -1;
    checkAcks(acks);
    if (this.config.idempotent === true && acks !== -1) {
      throw new KafkaJSNonRetriableError(
        "Not requiring ack for all messages invalidates the idempotent producer's EoS guarantees",
      );
    }
    const topicMessages = batch.topicMessages ?? [];
    for (const { topic, messages } of topicMessages) {
      if (!topic) throw new KafkaJSNonRetriableError('Invalid topic');
      if (!Array.isArray(messages))
        throw new KafkaJSNonRetriableError(`Invalid messages array [${messages}] for topic "${topic}"`);
      for (const m of messages) {
        if (m === null || typeof m !== 'object' || m.value === undefined) {
          throw new KafkaJSNonRetriableError(
            `Invalid message without value for topic "${topic}": ${JSON.stringify(m)}`,
          );
        }
      }
    }
    return translated(async () => {
      const compression = batch.compression ?? CompressionTypes.None;
      const codec = CODEC_NAMES[compression];
      if (codec === undefined)
        throw new KafkaJSNonRetriableError(`compression: unknown compression type ${compression}`);
      const options: SendOptions = { acks: acks === -1 ? 'all' : (acks as 0 | 1), compression: codec };
      const producer = this.producerFor(acks, batch.timeout);
      // Every message of the call in one core sendBatch(): one promise per call, not one per message.
      const records: CoreRecord[] = [];
      for (const { topic, messages } of topicMessages) {
        const partitionMetadata = await this.partitionMetadata(topic);
        for (const message of messages) {
          records.push({
            topic,
            partition: this.partition({ topic, partitionMetadata, message }),
            key: message.key ?? null,
            value: message.value,
            // No headers: nothing to convert (the common case; no empty list per message).
            headers: message.headers === undefined ? undefined : headersToCore(message.headers),
            timestamp: message.timestamp === undefined ? undefined : Number(message.timestamp),
          });
        }
      }
      const results = await producer.sendBatch(records, options);
      return acks === 0 ? [] : perPartition(results);
    });
  }

  private async partitionMetadata(topic: string): Promise<PartitionMetadata[]> {
    const t = await this.client().cluster.metadataCache.topic(topic);
    if (t.error !== undefined) throw t.error;
    return t.partitions.map(partitionMetadataOf);
  }

  async close(): Promise<void> {
    const producers = [...this.producers.values()];
    this.producers.clear();
    await Promise.all(producers.map((p) => p.close()));
  }
}

/** kafkajs answers per partition written: the first offset of the send's records there. */
function perPartition(results: CoreMetadata[]): RecordMetadata[] {
  const first = new Map<string, CoreMetadata>();
  for (const r of results) {
    const key = `${r.topic}\0${r.partition}`;
    const seen = first.get(key);
    if (seen === undefined || r.offset < seen.offset) first.set(key, r);
  }
  return [...first.values()]
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1))
    .map((r) => ({
      topicName: r.topic,
      partition: r.partition,
      errorCode: 0,
      baseOffset: String(r.offset),
      logAppendTime: '-1',
      logStartOffset: '-1',
    }));
}

export class Producer {
  readonly events = Instrumentation.producerEvents;
  private client: Client | undefined;
  private readonly sender: MessageSender;
  private transactional: CoreProducer | undefined;
  private readonly instrumentation = new Instrumentation('producer');

  constructor(
    private readonly connectClient: () => Promise<Client>,
    private readonly config: ProducerConfig,
    private readonly log: Logger,
  ) {
    if (config.transactionalId !== undefined && config.idempotent === false) {
      log.warn('Transactional producer must be idempotent; idempotent is turned on', { option: 'idempotent' });
    }
    this.sender = new MessageSender(() => this.requireClient(), config, config.createPartitioner);
  }

  private requireClient(): Client {
    if (this.client === undefined) throw new KafkaJSNonRetriableError('The producer is disconnected');
    return this.client;
  }

  connect(): Promise<void> {
    return this.instrumentation.within(async () => {
      if (this.client !== undefined) return;
      this.client = await translated(this.connectClient);
      await translated(() => this.requireClient().metadata({ topics: [] }));
      this.instrumentation.emit('producer.connect', {});
    });
  }

  async disconnect(): Promise<void> {
    const client = this.client;
    if (client === undefined) return;
    await this.sender.close();
    await this.transactional?.close();
    this.transactional = undefined;
    this.client = undefined;
    await client.close();
    this.instrumentation.emit('producer.disconnect', {});
  }

  isIdempotent(): boolean {
    return this.config.idempotent === true;
  }

  send(record: ProducerRecord): Promise<RecordMetadata[]> {
    const { topic, messages, ...rest } = record;
    return this.sendBatch({ ...rest, topicMessages: [{ topic, messages }] });
  }

  /** Sends run as this producer's (request-events.ts), so their requests are reported by its REQUEST events. */
  sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    return this.instrumentation.within(() => this.sender.sendBatch(batch));
  }

  /** Begins a transaction; the transactional core producer is made (and its id initialised) on first use. */
  transaction(): Promise<Transaction> {
    return this.instrumentation.within(() => this.beginTransaction());
  }

  private async beginTransaction(): Promise<Transaction> {
    const transactionalId = this.config.transactionalId;
    if (transactionalId === undefined) {
      throw new KafkaJSNonRetriableError('Must provide transactional id for transactional producer');
    }
    if (this.transactional === undefined) {
      const producer = this.requireClient().producer({
        transactionalId,
        idempotent: true,
        ...(this.config.transactionTimeout === undefined
          ? {}
          : { transactionTimeoutMs: this.config.transactionTimeout }),
      });
      await translated(() => producer.initTransactions());
      this.transactional = producer;
    }
    const producer = this.transactional;
    const sender = new MessageSender(
      () => this.requireClient(),
      this.config,
      this.config.createPartitioner,
      () => producer,
    );
    return createTransaction(producer, sender);
  }

  on(eventName: string, listener: (event: unknown) => void): () => void {
    return this.instrumentation.on(eventName, listener);
  }

  logger(): Logger {
    return this.log;
  }
}

export type { ClientConfig };
