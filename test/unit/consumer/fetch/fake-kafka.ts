/**
 * A small in-memory Kafka for the consumer's logic tests: partition logs of real encoded record batches,
 * brokers that answer Fetch (with KIP-227 sessions), ListOffsets, OffsetForLeaderEpoch, and a cluster view with
 * the shape the Consumer uses. Requests and answers go through the real codecs at the negotiated versions, so a
 * field a version cannot carry fails here as it would on the wire. Tests steer it: move leaders, inject errors,
 * name a preferred read replica, report a diverging epoch.
 */
import { EventEmitter } from 'node:events';
import { Reader } from '../../../../codecs/reader.js';
import { encodeRecordBatch } from '../../../../codecs/records/index.js';
import { Writer } from '../../../../codecs/writer.js';
import { requestCodec, responseCodec } from '../../../../protocol/codec.js';
import type { ApiDef } from '../../../../protocol/schema.js';
import type { Cluster } from '../../../../src/cluster/cluster.js';
import type { ClusterMetadata, PartitionMetadata, TopicMetadata } from '../../../../src/cluster/metadata.js';
import type { Connection } from '../../../../src/network/connection.js';
import { ConnectionError } from '../../../../src/network/errors.js';
import { answerFetch, type FetchHooks, type Sessions } from './fake-fetch.js';

export interface FakePartition {
  leader: number;
  leaderEpoch: number;
  /** Encoded batches, in offset order. */
  batches: { baseOffset: bigint; lastOffset: bigint; bytes: Buffer }[];
  logStart: bigint;
  /** Where each epoch of the log starts (for OffsetForLeaderEpoch). */
  epochStarts: { epoch: number; start: bigint }[];
}

export interface SeenRequest {
  node: number;
  api: string;
  version: number;
  body: any;
}

const VERSIONS: Record<string, number> = { Fetch: 12, ListOffsets: 7, OffsetForLeaderEpoch: 4, Metadata: 12 };

export class FakeKafka {
  readonly topics = new Map<string, { topicId: string; partitions: FakePartition[] }>();
  readonly seen: SeenRequest[] = [];
  readonly hooks: FetchHooks = {};
  readonly sessions: Sessions = new Map();
  versions: Record<string, number> = { ...VERSIONS };
  private nextTopicId = 1;

  constructor(readonly nodes: number[] = [1, 2]) {}

  createTopic(name: string, partitions: number, leaderOf: (p: number) => number = () => this.nodes[0]): void {
    const id = Buffer.alloc(16);
    id.writeUInt32BE(this.nextTopicId++, 12);
    this.topics.set(name, {
      topicId: id.toString('base64url'),
      partitions: [...Array(partitions)].map((_, p) => ({
        leader: leaderOf(p),
        leaderEpoch: 0,
        batches: [],
        logStart: 0n,
        epochStarts: [{ epoch: 0, start: 0n }],
      })),
    });
  }

  partition(topic: string, partition: number): FakePartition {
    return this.topics.get(topic)!.partitions[partition];
  }

  /** Appends `count` records (values `v<offset>`) in batches of `perBatch`, written in the current leader epoch. */
  append(topic: string, partition: number, count: number, perBatch = 10): void {
    const p = this.partition(topic, partition);
    let next = this.logEnd(p);
    for (let left = count; left > 0; ) {
      const n = Math.min(perBatch, left);
      const records = [...Array(n)].map((_, i) => ({ value: Buffer.from(`v${next + BigInt(i)}`) }));
      p.batches.push({
        baseOffset: next,
        lastOffset: next + BigInt(n - 1),
        bytes: encodeRecordBatch(records, { baseOffset: next, partitionLeaderEpoch: p.leaderEpoch }),
      });
      next += BigInt(n);
      left -= n;
    }
  }

  logEnd(p: FakePartition): bigint {
    return p.batches.length === 0 ? p.logStart : p.batches[p.batches.length - 1].lastOffset + 1n;
  }

  /** Moves leadership; the new leader's epoch is one higher and starts at the current log end. */
  moveLeader(topic: string, partition: number, to: number): void {
    const p = this.partition(topic, partition);
    p.leader = to;
    p.leaderEpoch++;
    p.epochStarts.push({ epoch: p.leaderEpoch, start: this.logEnd(p) });
  }

  fetches(node?: number): SeenRequest[] {
    return this.seen.filter((r) => r.api === 'Fetch' && (node === undefined || r.node === node));
  }

  metadata(): ClusterMetadata {
    const topics = new Map<string, TopicMetadata>();
    for (const [name, t] of this.topics) {
      topics.set(name, {
        name,
        topicId: t.topicId,
        isInternal: false,
        error: undefined,
        partitions: t.partitions.map(
          (p, partition): PartitionMetadata => ({
            partition,
            leader: p.leader,
            leaderEpoch: p.leaderEpoch,
            replicas: this.nodes,
            isr: this.nodes,
            offlineReplicas: [],
            error: undefined,
          }),
        ),
      });
    }
    const brokers = new Map(
      this.nodes.map((nodeId) => [nodeId, { nodeId, host: `fake-${nodeId}`, port: 9092, rack: null }]),
    );
    return { clusterId: 'fake', controllerId: this.nodes[0], brokers, topics, version: 12 };
  }

  /** The cluster as the Consumer sees it (metadata cache, leader lookups, dedicated connections). */
  asCluster(): Cluster {
    const connection = (nodeId: number) => new FakeBrokerConnection(this, nodeId).asConnection;
    const cluster = {
      isClosed: false,
      metadataCache: {
        get metadata() {
          return self.metadata();
        },
        topic: async (name: string) => this.metadata().topics.get(name)!,
        invalidate: () => {},
        broker: (nodeId: number) => this.metadata().brokers.get(nodeId),
        refresh: async () => this.metadata(),
      },
      partitionMetadata: async (topic: string, partition: number) =>
        this.metadata().topics.get(topic)!.partitions[partition],
      connectionTo: async (nodeId: number) => connection(nodeId),
      noteError: () => {},
      pool: { openDedicated: async (address: { nodeId?: number }) => connection(address.nodeId!) },
    };
    const self = this;
    return cluster as unknown as Cluster;
  }

  /** Answers one request (already decoded by the real request codec). */
  async answer(node: number, api: string, version: number, body: any, signal?: AbortSignal): Promise<unknown> {
    this.seen.push({ node, api, version, body });
    switch (api) {
      case 'Fetch':
        return answerFetch(this, node, version, body, signal);
      case 'ListOffsets':
        return {
          topics: body.topics.map((t: any) => ({
            name: t.name,
            partitions: t.partitions.map((q: any) => {
              const p = this.partition(t.name, q.partitionIndex);
              const offset = q.timestamp === -2n ? p.logStart : this.logEnd(p);
              return {
                partitionIndex: q.partitionIndex,
                errorCode: 0,
                timestamp: -1n,
                offset,
                leaderEpoch: p.leaderEpoch,
              };
            }),
          })),
        };
      case 'OffsetForLeaderEpoch':
        return {
          topics: body.topics.map((t: any) => ({
            topic: t.topic,
            partitions: t.partitions.map((q: any) => {
              const p = this.partition(t.topic, q.partition);
              const known = p.epochStarts.filter((e) => e.epoch <= q.leaderEpoch);
              if (known.length === 0 || q.leaderEpoch > p.leaderEpoch) {
                return { partition: q.partition, errorCode: 0, leaderEpoch: -1, endOffset: -1n };
              }
              const epoch = known[known.length - 1].epoch;
              const after = p.epochStarts.find((e) => e.epoch > epoch);
              return {
                partition: q.partition,
                errorCode: 0,
                leaderEpoch: epoch,
                endOffset: after?.start ?? this.logEnd(p),
              };
            }),
          })),
        };
      default:
        throw new Error(`fake broker: no ${api}`);
    }
  }
}

/** A connection to one fake broker: real codecs both ways, abortable, closable. */
export class FakeBrokerConnection extends EventEmitter {
  readonly address: string;
  isClosed = false;

  constructor(
    private readonly kafka: FakeKafka,
    readonly nodeId: number,
  ) {
    super();
    this.address = `fake-${nodeId}:9092`;
  }

  get isReady(): boolean {
    return !this.isClosed;
  }

  versionFor(api: ApiDef): number {
    return this.kafka.versions[api.name];
  }

  async request(
    api: ApiDef,
    body: unknown,
    options: { version?: number; signal?: AbortSignal } = {},
  ): Promise<unknown> {
    if (this.isClosed) throw new ConnectionError('closed', { host: 'fake', port: 9092, nodeId: this.nodeId });
    const version = options.version ?? this.versionFor(api);
    const w = new Writer();
    requestCodec(api, version).encode(w, body as never);
    const decoded = requestCodec(api, version).decode(new Reader(w.toBuffer()));
    const answer = await this.kafka.answer(this.nodeId, api.name, version, decoded, options.signal);
    if (answer instanceof Error) throw answer;
    const out = new Writer();
    responseCodec(api, version).encode(out, answer as never);
    return responseCodec(api, version).decode(new Reader(out.toBuffer()));
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.emit('close');
  }

  get asConnection(): Connection {
    return this as unknown as Connection;
  }
}
