/**
 * kafkajs's `Kafka` class: checks the config at construction (so an unsupported option fails before anything
 * connects) and gives every producer, consumer and admin a core Client of its own, made at `connect()` from
 * the broker list (kafkajs's `brokers` may be an async function, asked again at each connect).
 */
import { Client } from '../index.js';
import { Admin, type AdminConfig } from './admin.js';
import { checkKafkaConfig, type KafkaConfig, resolveBrokers } from './config.js';
import { createLogger, defaultLogCreator, type Logger, logLevel } from './constants.js';
import { Consumer, type ConsumerConfig } from './consumer.js';
import { KafkaJSNonRetriableError } from './errors.js';
import { Producer, type ProducerConfig } from './producer.js';

export class Kafka {
  private readonly config: KafkaConfig;
  private readonly rootLogger: Logger;
  private readonly clientConfig: ReturnType<typeof checkKafkaConfig>;

  constructor(config: KafkaConfig) {
    this.config = config;
    this.rootLogger = createLogger(config?.logLevel ?? logLevel.INFO, config?.logCreator ?? defaultLogCreator);
    this.clientConfig = checkKafkaConfig(config, this.rootLogger);
  }

  /** A core client for one producer, consumer or admin. */
  private async connectClient(): Promise<Client> {
    const brokers = await resolveBrokers(this.config.brokers);
    return new Client({ ...this.clientConfig, bootstrap: brokers });
  }

  producer(config: ProducerConfig = {}): Producer {
    return new Producer(() => this.connectClient(), config, this.rootLogger.namespace('Producer'));
  }

  consumer(config: ConsumerConfig): Consumer {
    if (config === undefined || typeof config.groupId !== 'string' || config.groupId === '') {
      throw new KafkaJSNonRetriableError('Consumer groupId must be a non-empty string.');
    }
    const retry = { ...this.config.retry, ...config.retry };
    return new Consumer(() => this.connectClient(), { ...config, retry }, this.rootLogger.namespace('Consumer'));
  }

  admin(config: AdminConfig = {}): Admin {
    return new Admin(() => this.connectClient(), config, this.rootLogger.namespace('Admin'));
  }

  logger(): Logger {
    return this.rootLogger;
  }
}
