import { INT16_MAX } from '../codecs/limits.js';
import { AclAdmin } from './admin/acls.js';
import { Admin } from './admin/admin.js';
import { GroupAdmin } from './admin/groups.js';
import { Offsets } from './admin/offsets.js';
import { QuotaAdmin } from './admin/quotas.js';
import { ScramCredentialAdmin } from './admin/scram.js';
import { parseBrokerAddress } from './cluster/address.js';
import { Cluster } from './cluster/cluster.js';
import type { ClusterMetadata } from './cluster/metadata.js';
import { Consumer } from './consumer/consumer.js';
import type { ConsumerOptions } from './consumer/options.js';
import { Coordinators } from './coordinator/coordinators.js';
import { DEFAULT_CLIENT_ID, DEFAULT_REQUEST_TIMEOUT_MS } from './network/connection.js';
import type { BrokerAddress } from './network/errors.js';
import { type SecurityConfig, securityOptions } from './network/security/config.js';
import { clientLogger, type LogOptions } from './observability/client-log.js';
import { type ClientMetrics, ClientMetricsRecorder } from './observability/client-metrics.js';
import { logConsumerTrouble } from './observability/consumer-log.js';
import { guardedLogger, type Logger } from './observability/logger.js';
import { ConfigError } from './options/config-error.js';
import { checkedIn, checkOptions, integer, type OptionRules, string } from './options/rules.js';
import type { ProducerOptions } from './producer/options.js';
import { Producer } from './producer/producer.js';

/** What a Client is made with: the brokers, identity, security, timeouts and logging. */
export interface ClientConfig extends Omit<SecurityConfig, 'logger'>, LogOptions {
  /** Brokers to start from: `host:port` strings, or one comma-separated string. */
  bootstrap: string | readonly string[];
  /** Sent with every request; brokers log it and apply quotas by it. Default `tidemark`. */
  clientId?: string;
  /** How long a request may wait for its response. Default 30 000. */
  requestTimeoutMs?: number;
  /** How long opening a TCP connection may take. Default 10 000. */
  connectTimeoutMs?: number;
  /** Largest response accepted; a larger size prefix fails the connection. Default 100 MiB. */
  maxResponseBytes?: number;
  /** Cached topic metadata older than this is refreshed before use. Default 300 000. */
  metadataMaxAgeMs?: number;
}

/** One rule per option (src/options/rules.ts); the compiler keeps the table and ClientConfig in step. */
const CLIENT_RULES = {
  bootstrap: (value) => void parseBootstrap(value),
  clientId: (value, option) => {
    string(value, option);
    // Every request header carries it as an int16-length string.
    if (Buffer.byteLength(value as string) > INT16_MAX) throw new ConfigError(option, 'longer than 32767 bytes');
  },
  requestTimeoutMs: integer(1),
  connectTimeoutMs: integer(1),
  // The size prefix is an int32, so no response can be larger anyway.
  maxResponseBytes: integer(1),
  metadataMaxAgeMs: integer(0, Number.MAX_SAFE_INTEGER),
  tls: checkedIn('securityOptions'),
  sasl: checkedIn('securityOptions'),
  logger: checkedIn('clientLogger'),
  logLevel: checkedIn('clientLogger'),
} satisfies OptionRules<ClientConfig>;

/** `host:port` strings, or one comma-separated string; at least one. */
function parseBootstrap(value: unknown): BrokerAddress[] {
  const raw = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new ConfigError('bootstrap', 'expected at least one "host:port"');
  }
  return raw.map((entry, i) => parseBrokerAddress(entry, `bootstrap[${i}]`));
}

interface ValidConfig extends Omit<ClientConfig, 'bootstrap' | 'logger'> {
  bootstrap: BrokerAddress[];
  /** The one logger of the client: level-filtered and guarded (src/observability/logger.ts). */
  logger: Logger | undefined;
  /** What `tls` and `sasl` become on every connection. */
  security: ReturnType<typeof securityOptions>;
}

/** Checks every option and throws ConfigError naming the first bad one; unknown names are errors, to catch typos. */
export function validateConfig(config: unknown): ValidConfig {
  checkOptions<ClientConfig>(config, CLIENT_RULES, { kind: 'client', name: 'config' });
  const bootstrap = parseBootstrap(config.bootstrap);
  const logger = clientLogger(config);
  return { ...config, bootstrap, logger, security: securityOptions({ ...config, logger }) };
}

/**
 * The entry point: one client per application and cluster. Connects lazily, on the first call that needs the
 * cluster.
 */
export class Client {
  /** Topics, configs, partitions, records, the cluster and replica moves. */
  readonly admin: Admin;
  /** Consumer-group administration: list, describe with lag, reset, delete, export and import offsets. */
  readonly groups: GroupAdmin;
  /** Access-control lists: create, describe and delete bindings (the broker needs an authorizer). */
  readonly acls: AclAdmin;
  /** Users' SCRAM credentials: describe (mechanisms, iterations) and upsert or delete. */
  readonly scramCredentials: ScramCredentialAdmin;
  /** Client quotas per user, client id and ip: describe and alter. */
  readonly quotas: QuotaAdmin;
  /** Log offsets (earliest, latest, by time), truncation checks, and committing / reading group offsets. */
  readonly offsets: Offsets;
  /** Which broker coordinates which group or transactional id (cached, rediscovered when it moves). */
  readonly coordinators: Coordinators;
  /** Connections and metadata, for code that speaks to brokers directly. */
  readonly cluster: Cluster;
  /** The bound of each request: what every call that sets no timeout of its own inherits (consumers included). */
  readonly requestTimeoutMs: number;
  /** The client id every request carries (`tidemark` unless configured); names this client in tracing. */
  readonly clientId: string;
  private readonly configuredRequestTimeoutMs: number | undefined;
  private readonly logger: Logger | undefined;
  private readonly recorder = new ClientMetricsRecorder();

  constructor(config: ClientConfig) {
    const valid = validateConfig(config);
    this.configuredRequestTimeoutMs = valid.requestTimeoutMs;
    this.requestTimeoutMs = valid.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.logger = valid.logger;
    this.clientId = valid.clientId ?? DEFAULT_CLIENT_ID;
    this.cluster = new Cluster({
      bootstrap: valid.bootstrap,
      clientId: valid.clientId,
      requestTimeoutMs: valid.requestTimeoutMs,
      connectTimeoutMs: valid.connectTimeoutMs,
      maxResponseBytes: valid.maxResponseBytes,
      metadataMaxAgeMs: valid.metadataMaxAgeMs,
      ...valid.security,
      requestObserver: this.recorder.requestObserver,
    });
    const { requestTimeoutMs } = this;
    this.coordinators = new Coordinators(this.cluster, { requestTimeoutMs });
    this.admin = new Admin(this.cluster, { requestTimeoutMs: valid.requestTimeoutMs, coordinators: this.coordinators });
    const groupContext = { cluster: this.cluster, coordinators: this.coordinators, requestTimeoutMs };
    this.groups = new GroupAdmin(groupContext);
    this.offsets = new Offsets(groupContext);
    const adminContext = { cluster: this.cluster, requestTimeoutMs };
    this.acls = new AclAdmin(adminContext);
    this.scramCredentials = new ScramCredentialAdmin(adminContext);
    this.quotas = new QuotaAdmin(adminContext);
  }

  /** Brokers, controller and topics: every topic without `topics`, else the named ones (errors included). */
  metadata(options: { topics?: readonly string[] } = {}): Promise<ClusterMetadata> {
    return this.cluster.metadata({ topics: options.topics ?? null });
  }

  /**
   * A producer sharing this client's connections and metadata. Close it (to deliver what it holds) before the
   * client.
   */
  producer(options: ProducerOptions = {}): Producer {
    const producer = new Producer(this.cluster, options, {
      requestTimeoutMs: this.configuredRequestTimeoutMs,
      observer: this.recorder.producerObserver(this.clientId),
    });
    this.recorder.trackProducer(producer);
    return producer;
  }

  /**
   * A consumer sharing this client's connections, metadata and coordinator cache; it logs through the client's
   * `logger` unless `options.logger` is given. Close it (to commit what was processed) before the client.
   */
  consumer(options: ConsumerOptions = {}): Consumer {
    const own = options.logger;
    // The consumer's own logger function is guarded as the client's is; anything else fails in its options.
    const logger = typeof own === 'function' ? guardedLogger(own, 'debug') : (own ?? this.logger);
    const consumer = new Consumer(this, logger === undefined ? options : { ...options, logger });
    if (logger !== undefined) logConsumerTrouble(consumer, logger);
    this.recorder.trackConsumer(consumer);
    return consumer;
  }

  /**
   * A snapshot of this client: requests per API and broker (latency histogram, bytes, errors), fetch and
   * produce rates, and the lag, commit latency and buffer use of its open consumers and producers (those made
   * with client.consumer() and client.producer()). docs/observability.md describes every field.
   */
  metrics(): ClientMetrics {
    return this.recorder.snapshot();
  }

  /** Closes every connection; pending calls reject with ConnectionError. */
  close(): Promise<void> {
    return this.cluster.close();
  }
}
