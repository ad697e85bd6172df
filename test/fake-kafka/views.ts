/**
 * How clients reach the fake cluster: a connection per broker that runs every request and answer through
 * tidemark's real codecs at the fake's versions (so a field a version cannot carry fails here as on the wire),
 * and the cluster views the producer (ProducerCluster) and the consumer (Cluster) are built on.
 */
import { EventEmitter } from 'node:events';
import { Reader } from '../../codecs/reader.js';
import { Writer } from '../../codecs/writer.js';
import { requestCodec, responseCodec } from '../../protocol/codec.js';
import type { ApiDef } from '../../protocol/schema.js';
import type { Cluster } from '../../src/cluster/cluster.js';
import type { MetadataQuery } from '../../src/cluster/metadata.js';
import { CoordinatorLink } from '../../src/consumer/group/coordinator-link.js';
import { Coordinators } from '../../src/coordinator/coordinators.js';
import type { Connection } from '../../src/network/connection.js';
import { ConnectionError } from '../../src/network/errors.js';
import type { FrameAllocator } from '../../src/network/frame-allocator.js';
import type { ProducerCluster } from '../../src/producer/cluster-view.js';
import type { FakeKafka } from './cluster.js';

/** A connection to one fake broker: real codecs both ways, abortable, closable. */
export class FakeConnection extends EventEmitter {
  readonly address: string;
  /** Its index in `kafka.connections`. */
  readonly id: number;
  private closed = false;
  /** Set by useFrameAllocator: every response is written into its memory before it is decoded, as a socket would. */
  private frames: FrameAllocator | undefined;

  constructor(
    private readonly kafka: FakeKafka,
    readonly nodeId: number,
  ) {
    super();
    this.address = `fake-${nodeId}:9092`;
    this.id = kafka.connections.push(this) - 1;
  }

  /** Closed by close(), or because the cluster refuses connections (as a closed client's are). */
  get isClosed(): boolean {
    return this.closed || this.kafka.refuseConnections;
  }

  get isReady(): boolean {
    return !this.isClosed;
  }

  versionFor(api: ApiDef): number {
    const version = this.kafka.versions[api.name];
    if (version === undefined) throw new Error(`fake kafka offers no version of ${api.name}`);
    return version;
  }

  async request(
    api: ApiDef,
    body: unknown,
    options: { version?: number; signal?: AbortSignal; expectResponse?: boolean } = {},
  ): Promise<unknown> {
    if (this.isClosed) throw new ConnectionError('closed', { host: 'fake', port: 9092, nodeId: this.nodeId });
    const version = options.version ?? this.versionFor(api);
    const w = new Writer();
    requestCodec(api, version).encode(w, body as never);
    const decoded = requestCodec(api, version).decode(new Reader(w.toBuffer()));
    const answer = await this.kafka.answer(this.nodeId, api.name, version, decoded, options.signal, this.id);
    // acks=0: the broker sends nothing back.
    if (options.expectResponse === false) return undefined;
    const out = new Writer();
    responseCodec(api, version).encode(out, answer as never);
    let bytes = out.toBuffer();
    if (this.frames !== undefined) {
      const frame = this.frames.allocate(bytes.length);
      bytes.copy(frame);
      this.frames.received(frame);
      bytes = frame;
    }
    return responseCodec(api, version).decode(new Reader(bytes));
  }

  useFrameAllocator(allocator: FrameAllocator): void {
    this.frames = allocator;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.emit('close');
  }

  get asConnection(): Connection {
    return this as unknown as Connection;
  }
}

export type FakeProducerCluster = ProducerCluster & { noted: { err: unknown; topic?: string }[] };
const producerViews = new WeakMap<FakeKafka, FakeProducerCluster>();

/**
 * The producer's view (one per cluster, so producers share it): one connection per broker; `noted` collects
 * what the producers told the metadata cache.
 */
export function producerView(kafka: FakeKafka): FakeProducerCluster {
  const view = producerViews.get(kafka) ?? newProducerView(kafka);
  producerViews.set(kafka, view);
  return view;
}

function newProducerView(kafka: FakeKafka): FakeProducerCluster {
  const connections = new Map<number, FakeConnection>();
  const connectionTo = async (nodeId: number) => {
    if (kafka.refuseConnections) {
      throw new ConnectionError('the client is closed', undefined, { retriable: false });
    }
    const connection = connections.get(nodeId) ?? new FakeConnection(kafka, nodeId);
    connections.set(nodeId, connection);
    return connection.asConnection;
  };
  const noted: { err: unknown; topic?: string }[] = [];
  return {
    noted,
    topicMetadata: async (topic) => kafka.topicMetadata(topic),
    connectionTo,
    anyConnection: () => connectionTo(kafka.nodes[0]),
    noteError: (err, topic) => {
      noted.push({ err, topic });
    },
  };
}

/** The cluster as the Consumer sees it (metadata cache, leader lookups, dedicated connections). */
export function consumerView(kafka: FakeKafka): Cluster {
  const connection = (nodeId: number) => {
    if (kafka.down.has(nodeId)) {
      throw new ConnectionError('connection refused', { host: `fake-${nodeId}`, port: 9092, nodeId });
    }
    return new FakeConnection(kafka, nodeId).asConnection;
  };
  const up = () => kafka.nodes.find((nodeId) => !kafka.down.has(nodeId)) ?? kafka.nodes[0];
  const cluster = {
    isClosed: false,
    metadataCache: {
      get metadata() {
        return kafka.metadata();
      },
      topic: async (name: string) => kafka.topicMetadata(name),
      invalidate: () => {},
      broker: (nodeId: number) => kafka.metadata().brokers.get(nodeId),
      refresh: async () => kafka.metadata(),
    },
    // Metadata is answered from the cluster's state directly (the Metadata API is there for clients that ask it).
    metadata: async (query: MetadataQuery = {}) => kafka.metadata(query),
    partitionMetadata: async (topic: string, partition: number) => kafka.topicMetadata(topic).partitions[partition],
    connectionTo: async (nodeId: number) => connection(nodeId),
    anyConnection: async () => connection(up()),
    controllerConnection: async () => connection(kafka.nodes[0]),
    noteError: () => {},
    pool: {
      openDedicated: async (address: { nodeId?: number }) => connection(address.nodeId!),
      get: async (address: { nodeId?: number }) => connection(address.nodeId!),
    },
  };
  return cluster as unknown as Cluster;
}

/** A client's coordinator cache over the fake (short backoff, as tests want). */
export function coordinatorsView(kafka: FakeKafka, backoff = { initialMs: 1, maxMs: 5 }): Coordinators {
  return new Coordinators(consumerView(kafka), { requestTimeoutMs: 2_000, backoff });
}

/** A group member's way to its coordinator: the real CoordinatorLink over the fake (what membership is given). */
export function groupLink(kafka: FakeKafka, groupId: string, coordinators = coordinatorsView(kafka)): CoordinatorLink {
  return new CoordinatorLink(groupId, consumerView(kafka), coordinators);
}
