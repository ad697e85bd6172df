/**
 * The conformance suite's access to the broker under test: connections (pooled for ordinary checks, dedicated
 * ones for checks that may get a connection closed), scratch topics and groups with a common prefix, and the
 * small produce / coordinator helpers the checks share. Everything it creates is deleted in `cleanUp()`.
 */
import { randomBytes } from 'node:crypto';
import type { RecordInput } from '../../codecs/records/index.js';
import { type EncodeBatchOptions, encodeRecordBatch } from '../../codecs/records/index.js';
import { FindCoordinator } from '../../protocol/apis/find-coordinator.js';
import { Produce } from '../../protocol/apis/produce.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { Client, type ClientConfig } from '../client.js';
import type { BrokerApiVersions } from '../network/api-versions.js';
import { Connection } from '../network/connection.js';
import { securityOptions } from '../network/security/config.js';
import { errorName, type Probe } from './probe.js';

/** The broker under test and how to reach it. */
export interface ConformanceTarget {
  bootstrap: string;
  tls?: ClientConfig['tls'];
  sasl?: ClientConfig['sasl'];
  clientId?: string;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Prefix of every scratch topic and group; a random suffix keeps runs apart. */
  prefix?: string;
}

const COORDINATOR_WAIT_MS = 15_000;
const LEADER_WAIT_MS = 10_000;
const LEADER_RETRIABLE = new Set<number>([
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.LEADER_NOT_AVAILABLE,
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
]);
const COORDINATOR_RETRIABLE = new Set<number>([
  ErrorCode.NOT_COORDINATOR,
  ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  ErrorCode.COORDINATOR_NOT_AVAILABLE,
]);

/** The Produce version the suite sends: the highest that still names topics (v13 switched to topic ids). */
export function producibleByName(connection: Connection): number {
  return Math.min(connection.versionFor(Produce), 12);
}

export class Suite {
  readonly client: Client;
  readonly prefix: string;
  readonly bootstrap: { host: string; port: number };
  private readonly options: ConformanceTarget;
  private readonly topics = new Map<string, Promise<string>>();
  private readonly groups = new Set<string>();
  private readonly dedicated = new Set<Connection>();
  private brokerVersions: BrokerApiVersions | undefined;
  private readonly fixtures = new Map<string, Promise<unknown>>();

  constructor(options: ConformanceTarget) {
    this.options = options;
    this.prefix = options.prefix ?? `tidemark-conformance-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const first = options.bootstrap.split(',')[0].trim();
    const colon = first.lastIndexOf(':');
    this.bootstrap = { host: first.slice(0, colon).replace(/^\[|\]$/g, ''), port: Number(first.slice(colon + 1)) };
    this.client = new Client({
      bootstrap: options.bootstrap,
      clientId: options.clientId ?? 'tidemark-conformance',
      requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      ...(options.tls === undefined ? {} : { tls: options.tls }),
      ...(options.sasl === undefined ? {} : { sasl: options.sasl }),
    });
  }

  /** Connects to the bootstrap broker and learns its API versions; throws when it cannot. */
  async open(): Promise<void> {
    const connection = await this.client.cluster.anyConnection();
    this.brokerVersions = connection.apiVersions;
  }

  get versions(): BrokerApiVersions {
    if (this.brokerVersions === undefined) throw new Error('suite not opened');
    return this.brokerVersions;
  }

  /** A pooled connection to some broker. */
  any(): Promise<Connection> {
    return this.client.cluster.anyConnection();
  }

  leader(topic: string, partition: number): Promise<Connection> {
    return this.client.cluster.leaderFor(topic, partition);
  }

  /**
   * A new connection of the suite's own, for checks that may get it closed (malformed requests) or that need
   * it alone; `negotiate: false` skips ApiVersions. Closed by cleanUp() if the check does not.
   */
  async dedicatedConnection(
    target: { host: string; port: number } = this.bootstrap,
    negotiate = true,
  ): Promise<Connection> {
    const security = securityOptions({ tls: this.options.tls, sasl: this.options.sasl });
    const connection = new Connection({
      host: target.host,
      port: target.port,
      clientId: 'tidemark-conformance',
      requestTimeoutMs: this.options.requestTimeoutMs ?? 15_000,
      connectTimeoutMs: this.options.connectTimeoutMs ?? 10_000,
      negotiateVersions: negotiate,
      ...security,
    });
    this.dedicated.add(connection);
    connection.once('close', () => this.dedicated.delete(connection));
    return connection.connect();
  }

  /** Security options for sockets the suite opens itself. */
  get security(): { tls: ConformanceTarget['tls']; sasl: ConformanceTarget['sasl'] } {
    return { tls: this.options.tls, sasl: this.options.sasl };
  }

  /**
   * A scratch topic, created once per suite run under the prefix; checks sharing `name` share the topic. With
   * `oneLeader`, every partition is placed on the same broker (fetch sessions live on one broker).
   */
  topic(name: string, partitions = 1, configs: Record<string, string> = {}, oneLeader = false): Promise<string> {
    let created = this.topics.get(name);
    if (created === undefined) {
      const full = `${this.prefix}-${name}`;
      created = (async () => {
        const spec = { name: full, numPartitions: partitions, replicationFactor: -1, configs };
        if (oneLeader) {
          const md = await this.client.metadata({ topics: [] });
          const node = Math.min(...md.brokers.keys());
          await this.client.admin.createTopics([
            { name: full, configs, replicaAssignment: Array.from({ length: partitions }, () => [node]) },
          ]);
        } else await this.client.admin.createTopics([spec]);
        // createTopics returns once metadata names a leader for every partition, and a broker publishes that a
        // moment before its replica manager leads the partition: a check's first raw request to the leader could
        // still be answered NOT_LEADER_OR_FOLLOWER (seen: list-offsets.empty-partition on a shared broker). A
        // ListOffsets through the client retries that answer, so the topic is served once this returns.
        const all = Array.from({ length: partitions }, (_, partition) => ({ topic: full, partition }));
        await this.client.offsets.list(all.map((p) => ({ ...p, spec: 'latest' as const })));
        return full;
      })();
      this.topics.set(name, created);
      created.catch(() => this.topics.delete(name));
    }
    return created;
  }

  /** A fixture several checks share, made by the first that asks (a failed one is made again next time). */
  shared<T>(key: string, make: () => Promise<T>): Promise<T> {
    let fixture = this.fixtures.get(key) as Promise<T> | undefined;
    if (fixture === undefined) {
      fixture = make();
      this.fixtures.set(key, fixture);
      fixture.catch(() => this.fixtures.delete(key));
    }
    return fixture;
  }

  /** A scratch group id under the prefix (deleted at the end). */
  group(name: string): string {
    const id = `${this.prefix}-${name}`;
    this.groups.add(id);
    return id;
  }

  /** The group coordinator's connection, waiting out COORDINATOR_NOT_AVAILABLE while the broker creates it. */
  async coordinator(probe: Probe | undefined, key: string, keyType = 0): Promise<Connection> {
    const started = Date.now();
    for (;;) {
      const connection = await this.any();
      const version = connection.versionFor(FindCoordinator);
      const body = version >= 4 ? { keyType, coordinatorKeys: [key] } : { key, keyType };
      const response = probe
        ? await probe.send(connection, FindCoordinator, body)
        : await connection.request(FindCoordinator, body);
      const answer = version >= 4 ? response.coordinators[0] : response;
      if (answer !== undefined && answer.errorCode === 0) return this.client.cluster.connectionTo(answer.nodeId);
      const code = answer?.errorCode ?? -1;
      const retriable = code === ErrorCode.COORDINATOR_NOT_AVAILABLE || code === ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
      if (!retriable || Date.now() - started > COORDINATOR_WAIT_MS) {
        throw new Error(`FindCoordinator for ${JSON.stringify(key)} answered error code ${code}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /**
   * Appends one batch with acks=all through the partition leader and returns its base offset; a broker error
   * fails the check's set-up with the error code named.
   */
  async produce(
    probe: Probe | undefined,
    topic: string,
    partition: number,
    records: readonly RecordInput[],
    batch: EncodeBatchOptions & { transactionalId?: string } = {},
  ): Promise<bigint> {
    const body = {
      transactionalId: batch.transactionalId ?? null,
      acks: -1,
      timeoutMs: 10_000,
      topicData: [{ name: topic, partitionData: [{ index: partition, records: encodeRecordBatch(records, batch) }] }],
    };
    // A topic created a moment ago may not have its leader everywhere yet; Kafka clients retry these errors.
    const until = Date.now() + LEADER_WAIT_MS;
    for (;;) {
      const connection = await this.leader(topic, partition);
      const version = producibleByName(connection);
      const response = probe
        ? await probe.send(connection, Produce, body, { version })
        : await connection.request(Produce, body, { version });
      const p = response.responses[0]?.partitionResponses[0];
      if (p !== undefined && p.errorCode === 0) return p.baseOffset;
      if (p === undefined || !LEADER_RETRIABLE.has(p.errorCode) || Date.now() > until) {
        throw new Error(
          `set-up produce to ${topic}-${partition} answered ${p === undefined ? 'no partition' : errorName(p.errorCode)}`,
        );
      }
      this.client.cluster.noteError(kafkaError(p.errorCode), topic);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Runs `attempt` (against the coordinator it looks up) again while the answer is a coordinator error a Kafka
   * client retries: NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE.
   */
  async retryingCoordinator<T>(attempt: () => Promise<T>, codeOf: (answer: T) => number): Promise<T> {
    const until = Date.now() + COORDINATOR_WAIT_MS;
    for (;;) {
      const answer = await attempt();
      if (!COORDINATOR_RETRIABLE.has(codeOf(answer)) || Date.now() > until) return answer;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Deletes the scratch topics and groups (unless `keep`) and closes every connection; returns what is left. */
  async cleanUp(keep: boolean): Promise<string[]> {
    const topics: string[] = [];
    for (const created of this.topics.values()) {
      const name = await created.catch(() => undefined);
      if (name !== undefined) topics.push(name);
    }
    const left: string[] = [];
    if (keep) left.push(...topics, ...[...this.groups].map((g) => `group ${g}`));
    else {
      for (const group of this.groups) {
        await this.client.groups.deleteGroups([group]).catch((err: Error) => {
          // A group nobody committed to does not exist; only other failures leave something behind.
          if (!/GROUP_ID_NOT_FOUND|does not exist/.test(err.message)) left.push(`group ${group}`);
        });
      }
      if (topics.length > 0) await this.client.admin.deleteTopics(topics).catch(() => left.push(...topics));
    }
    for (const connection of this.dedicated) await connection.close().catch(() => {});
    await this.client.close().catch(() => {});
    return left;
  }
}
