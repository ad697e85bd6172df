/**
 * kafkajs's `consumer({ groupId })` on the core Consumer. `subscribe()` collects topics (RegExps are matched
 * against the cluster's topics then, as kafkajs does); `run()` joins the group with all of them and returns
 * once joined, while the Runner feeds the handlers. kafkajs's pause by topic is kept (pauses.ts) and re-applied to
 * every partition the group assigns, so it survives rebalances; seeks asked before a partition is assigned
 * wait for its assignment.
 */
import type { Client, Consumer as CoreConsumer, PartitionAssignor, RebalanceEvent } from '../index.js';
import { describeGroups } from './admin-groups.js';
import { coreAssignors } from './assigners.js';
import type { RetryOptions } from './config.js';
import type { Logger } from './constants.js';
import { KafkaJSNonRetriableError, translated } from './errors.js';
import { Instrumentation } from './instrumentation.js';
import { Pauses, partitionKey, type TopicPartitions } from './pauses.js';
import { type ConsumerRunConfig, Runner } from './runner.js';

export interface ConsumerConfig {
  groupId: string;
  partitionAssigners?: unknown[];
  metadataMaxAge?: number;
  sessionTimeout?: number;
  rebalanceTimeout?: number;
  heartbeatInterval?: number;
  maxBytesPerPartition?: number;
  minBytes?: number;
  maxBytes?: number;
  maxWaitTimeInMs?: number;
  retry?: RetryOptions;
  allowAutoTopicCreation?: boolean;
  maxInFlightRequests?: number;
  readUncommitted?: boolean;
  rackId?: string;
}

export interface TopicPartitionOffsetAndMetadata {
  topic: string;
  partition: number;
  offset: string;
  metadata?: string | null;
}

export type { TopicPartitions };

export class Consumer {
  readonly events = Instrumentation.consumerEvents;
  private client: Client | undefined;
  private core: CoreConsumer | undefined;
  private readonly instrumentation = new Instrumentation('consumer');
  private readonly topics = new Map<string, { fromBeginning: boolean }>();
  private readonly patterns: { pattern: RegExp; fromBeginning: boolean }[] = [];
  private readonly pauses = new Pauses();
  private readonly pendingSeeks = new Map<string, { topic: string; partition: number; offset: bigint }>();
  private running = false;
  private loop: Promise<void> | undefined;
  private runner: Runner | undefined;
  /** kafkajs's `partitionAssigners` as core assignors, checked at construction as kafkajs checks them. */
  private readonly assignors: PartitionAssignor[];

  constructor(
    private readonly connectClient: () => Promise<Client>,
    private readonly config: ConsumerConfig,
    private readonly log: Logger,
  ) {
    this.assignors = coreAssignors(config.partitionAssigners);
    // kafkajs's HEARTBEAT follows each heartbeat the coordinator accepted.
    this.instrumentation.onAnswered = (request) => {
      const response = request.result as { errorCode?: number } | undefined;
      if (request.apiName !== 'Heartbeat' || response?.errorCode !== 0 || this.core === undefined) return;
      const meta = this.core.groupMetadata();
      this.instrumentation.emit('consumer.heartbeat', {
        groupId: config.groupId,
        memberId: meta.memberId,
        groupGenerationId: meta.generationId,
      });
    };
  }

  connect(): Promise<void> {
    return this.instrumentation.within(async () => {
      if (this.client !== undefined) return;
      this.client = await translated(this.connectClient);
      await translated(() => (this.client as Client).metadata({ topics: [] }));
      this.instrumentation.emit('consumer.connect', {});
    });
  }

  async subscribe(subscription: { topics?: (string | RegExp)[]; topic?: string | RegExp; fromBeginning?: boolean }) {
    if (this.client === undefined) throw new KafkaJSNonRetriableError('Consumer must be connected before subscribe');
    if (this.running) throw new KafkaJSNonRetriableError('Cannot subscribe to topic while consumer is running');
    const list = subscription.topics ?? (subscription.topic === undefined ? [] : [subscription.topic]);
    if (list.length === 0) throw new KafkaJSNonRetriableError('Missing required argument "topics"');
    const fromBeginning = subscription.fromBeginning === true;
    for (const t of list) {
      if (t instanceof RegExp) this.patterns.push({ pattern: t, fromBeginning });
      else if (typeof t === 'string') this.topics.set(t, { fromBeginning });
      else
        throw new KafkaJSNonRetriableError(
          `Invalid topic ${String(t)} (${typeof t}), the topic name has to be a String or a RegExp`,
        );
    }
    if (this.patterns.length > 0) {
      const client = this.client;
      const names = await translated(() => client.admin.listTopics());
      for (const { pattern, fromBeginning } of this.patterns) {
        for (const name of names)
          if (pattern.test(name) && !this.topics.has(name)) this.topics.set(name, { fromBeginning });
      }
    }
  }

  /**
   * Joins the group with every subscribed topic; resolves once joined, then the handlers run in the background.
   * The core's loops start here, as this consumer's: their requests are reported by its events.
   */
  run(config: ConsumerRunConfig = {}): Promise<void> {
    return this.instrumentation.within(() => this.start(config));
  }

  private async start(config: ConsumerRunConfig): Promise<void> {
    const client = this.client;
    if (client === undefined) throw new KafkaJSNonRetriableError('Consumer must be connected before run');
    if (this.running) return;
    if (config.eachBatch === undefined && config.eachMessage === undefined) {
      throw new KafkaJSNonRetriableError('Consumer requires eachBatch or eachMessage');
    }
    const begins = new Set([...this.topics.values()].map((t) => t.fromBeginning));
    if (begins.size > 1) {
      this.log.warn('Topics differ in fromBeginning: tidemark applies fromBeginning to all of them', {
        option: 'fromBeginning',
      });
    }
    const autoCommit = config.autoCommit !== false;
    const c = this.config;
    const core = client.consumer({
      groupId: c.groupId,
      autoOffsetReset: begins.has(true) ? 'earliest' : 'latest',
      autoCommit,
      // Only what kafkajs's rules resolve counts as processed (the Runner acknowledges it).
      ackMode: 'explicit',
      ...(config.autoCommitInterval ? { autoCommitIntervalMs: config.autoCommitInterval } : {}),
      isolationLevel: c.readUncommitted === true ? 'read_uncommitted' : 'read_committed',
      ...(c.maxBytesPerPartition === undefined ? {} : { maxPartitionFetchBytes: c.maxBytesPerPartition }),
      ...(c.minBytes === undefined ? {} : { fetchMinBytes: c.minBytes }),
      ...(c.maxBytes === undefined ? {} : { fetchMaxBytes: c.maxBytes }),
      ...(c.maxWaitTimeInMs === undefined ? {} : { fetchMaxWaitMs: c.maxWaitTimeInMs }),
      ...(c.rackId === undefined ? {} : { clientRack: c.rackId }),
      // kafkajs's time for a member to finish its work in a rebalance also bounds the wait for running handlers.
      ...(c.rebalanceTimeout === undefined ? {} : { revokeTimeoutMs: c.rebalanceTimeout }),
      group: {
        assignors: this.assignors,
        ...(c.sessionTimeout === undefined ? {} : { sessionTimeoutMs: c.sessionTimeout }),
        ...(c.rebalanceTimeout === undefined ? {} : { rebalanceTimeoutMs: c.rebalanceTimeout }),
        ...(c.heartbeatInterval === undefined ? {} : { heartbeatIntervalMs: c.heartbeatInterval }),
      },
    });
    this.core = core;
    this.wireEvents(core);
    this.running = true;
    try {
      await translated(() => core.subscribe({ topics: [...this.topics.keys()] }));
    } catch (err) {
      this.running = false;
      this.core = undefined;
      await core.close().catch(() => {});
      throw err;
    }
    const runner = new Runner(
      {
        core,
        logger: this.log,
        instrumentation: this.instrumentation,
        groupId: c.groupId,
        retry: c.retry ?? {},
        autoCommit,
        isRunning: () => this.running,
        pauses: () => this.pauses.count,
        pausePartition: (topic, partition) => {
          this.pause([{ topic, partitions: [partition] }]);
          return () => this.resume([{ topic, partitions: [partition] }]);
        },
        crashed: async (error, restart) => {
          this.log.error(`Crash: ${error.name}: ${error.message}`, { groupId: c.groupId });
          this.instrumentation.emit('consumer.crash', { error, groupId: c.groupId, restart });
          // Not awaited: stop() waits for this very loop to end.
          if (!restart) void this.stop();
        },
      },
      config,
    );
    this.runner = runner;
    this.loop = runner.loop().catch((err) => {
      const error = err instanceof Error ? err : new Error(String(err));
      this.instrumentation.emit('consumer.crash', { error, groupId: c.groupId, restart: false });
      void this.stop();
    });
  }

  private wireEvents(core: CoreConsumer): void {
    const groupId = this.config.groupId;
    core.on('rebalance', (e: RebalanceEvent) => {
      if (e.kind === 'revoked' || e.kind === 'lost') {
        this.instrumentation.emit('consumer.rebalancing', { groupId, memberId: e.memberId });
        return;
      }
      this.applyToAssigned(core);
      this.reportUnsubscribed(core, e);
      const memberAssignment: Record<string, number[]> = {};
      for (const p of core.assignment())
        memberAssignment[p.topic] = [...(memberAssignment[p.topic] ?? []), p.partition];
      this.instrumentation.emit('consumer.group_join', {
        duration: 0,
        groupId,
        isLeader: false,
        leaderId: '',
        groupProtocol: 'RoundRobinAssigner',
        memberId: e.memberId,
        memberAssignment,
      });
    });
    core.on('commit', (e) => {
      const topics = new Map<string, { partition: string; offset: string }[]>();
      for (const o of e.offsets) {
        const list = topics.get(o.topic) ?? [];
        list.push({ partition: String(o.partition), offset: String(o.offset) });
        topics.set(o.topic, list);
      }
      const meta = core.groupMetadata();
      this.instrumentation.emit('consumer.commit_offsets', {
        groupId,
        memberId: meta.memberId,
        groupGenerationId: meta.generationId,
        topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })),
      });
    });
    core.on('fetch', (e) => {
      this.instrumentation.emit('consumer.fetch_start', { nodeId: e.nodeId });
      this.instrumentation.emit('consumer.fetch', {
        numberOfBatches: e.partitionsReceived,
        duration: e.latencyMs,
        nodeId: e.nodeId,
      });
    });
    core.on('warning', (e) => this.log.warn(e.message, { groupId }));
  }

  /** kafkajs's RECEIVED_UNSUBSCRIBED_TOPICS: a leader (a kafkajs one deals its own topics) gave this member others. */
  private reportUnsubscribed(core: CoreConsumer, e: RebalanceEvent): void {
    const assignedTopics = [...new Set(core.assignment().map((p) => p.topic))];
    const topicsNotSubscribed = assignedTopics.filter((t) => !this.topics.has(t));
    if (topicsNotSubscribed.length === 0) return;
    this.log.warn('Consumer group received unsubscribed topics', { groupId: this.config.groupId, topicsNotSubscribed });
    this.instrumentation.emit('consumer.received_unsubscribed_topics', {
      groupId: this.config.groupId,
      generationId: e.generation ?? core.groupMetadata().generationId,
      memberId: e.memberId,
      assignedTopics,
      topicsSubscribed: [...this.topics.keys()],
      topicsNotSubscribed,
    });
  }

  /** After an assignment: pause what kafkajs says is paused, and apply seeks that waited for their partition. */
  private applyToAssigned(core: CoreConsumer): void {
    const assigned = core.assignment();
    const pause = this.pauses.toPause(assigned);
    if (pause.length > 0) core.pause(pause);
    for (const p of assigned) {
      const seek = this.pendingSeeks.get(partitionKey(p.topic, p.partition));
      if (seek === undefined) continue;
      this.pendingSeeks.delete(partitionKey(p.topic, p.partition));
      core.seek(p, seek.offset);
    }
  }

  async stop(): Promise<void> {
    const core = this.core;
    if (core === undefined) return;
    this.running = false;
    this.core = undefined;
    await this.awaitRunningBatch(core);
    await translated(() => core.close());
    await this.loop;
    this.instrumentation.emit('consumer.stop', {});
  }

  /**
   * As kafkajs's stop: the batches being processed finish first (their handlers start no further message), so
   * the close commits what they resolved and nothing of it is read again. Bounded by the core's
   * `revokeTimeoutMs` (kafkajs's `rebalanceTimeout` when given): a handler still running then is given up, what
   * it resolves later is not committed, and a warning names the offset its partition is read again from.
   */
  private async awaitRunningBatch(core: CoreConsumer): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    const ms = core.options.revokeTimeoutMs;
    for (const { topic, partition, offset } of (await runner?.settleWithin(ms)) ?? []) {
      this.log.warn(
        `stop went on without the handler of ${topic}-${partition} (still running after ${ms} ms): nothing from offset ${offset} on is committed, and it will be read again`,
        { groupId: this.config.groupId, topic, partition, offset: String(offset) },
      );
    }
  }

  async disconnect(): Promise<void> {
    await this.stop();
    const client = this.client;
    if (client === undefined) return;
    this.client = undefined;
    await client.close();
    this.instrumentation.emit('consumer.disconnect', {});
  }

  async commitOffsets(offsets: TopicPartitionOffsetAndMetadata[]): Promise<void> {
    const core = this.requireRunning('commitOffsets');
    await this.instrumentation.within(() =>
      translated(() =>
        core.commit({
          offsets: offsets.map((o) => ({
            topic: o.topic,
            partition: o.partition,
            offset: BigInt(o.offset),
            ...(o.metadata == null ? {} : { metadata: o.metadata }),
          })),
        }),
      ),
    );
  }

  seek({ topic, partition, offset }: { topic: string; partition: number; offset: string }): void {
    let target: bigint;
    try {
      target = BigInt(offset);
    } catch {
      throw new KafkaJSNonRetriableError(`Invalid offset "${offset}" for topic "${topic}" partition ${partition}`);
    }
    if (target < 0n) throw new KafkaJSNonRetriableError(`Offset ${offset} is not supported: use a position >= 0`);
    const core = this.core;
    if (core?.assignment().some((p) => p.topic === topic && p.partition === partition)) {
      core.seek({ topic, partition }, target);
    } else this.pendingSeeks.set(partitionKey(topic, partition), { topic, partition, offset: target });
  }

  pause(topics: TopicPartitions[]): void {
    this.pauses.apply(this.core, topics, true);
  }

  resume(topics: TopicPartitions[]): void {
    this.pauses.apply(this.core, topics, false);
  }

  paused(): { topic: string; partitions: number[] }[] {
    return Pauses.paused(this.core);
  }

  /** The group as the coordinator describes it, in kafkajs's shape. */
  async describeGroup() {
    if (this.client === undefined)
      throw new KafkaJSNonRetriableError('Consumer must be connected before describeGroup');
    const { groups } = await describeGroups(this.client, [this.config.groupId]);
    return groups[0];
  }

  on(eventName: string, listener: (event: unknown) => void): () => void {
    return this.instrumentation.on(eventName, listener);
  }

  logger(): Logger {
    return this.log;
  }

  private requireRunning(call: string): CoreConsumer {
    if (this.core === undefined) throw new KafkaJSNonRetriableError(`${call}: the consumer is not running`);
    return this.core;
  }
}
