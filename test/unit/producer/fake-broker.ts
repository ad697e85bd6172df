/**
 * A broker in memory, for the producer's logic: it keeps a log per partition and applies Kafka's idempotence
 * rules (sequence must follow the last one, a resend of one of the last five batches answers with its original
 * offset, a new epoch starts at sequence 0), and lets a test script failures: an error code for the next
 * batches, or an answer that is lost after the batch was appended. No bytes go over a socket; the records are
 * real RecordBatch bytes, decoded with tidemark's decoder.
 */
import { decodeRecords, type KafkaRecord, type RecordBatch } from '../../../codecs/records/index.js';
import { InitProducerId } from '../../../protocol/apis/init-producer-id.js';
import { Produce, type ProduceRequestInput, type ProduceResponse } from '../../../protocol/apis/produce.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { kafkaError } from '../../../protocol/kafka-error.js';
import type { ApiDef } from '../../../protocol/schema.js';
import type { TopicMetadata } from '../../../src/cluster/metadata.js';
import { ConnectionError, RequestTimeoutError } from '../../../src/network/errors.js';
import type { ProduceConnection, ProducerCluster } from '../../../src/producer/cluster-view.js';

interface ProducerEntry {
  epoch: number;
  lastSequence: number;
  /** The last five appended batches: first and last sequence, base offset. */
  recent: { first: number; last: number; baseOffset: bigint }[];
}

interface Partition {
  log: { batch: RecordBatch; record: KafkaRecord; offset: bigint }[];
  producers: Map<bigint, ProducerEntry>;
}

/** What a test can make the next Produce attempts for a partition do. */
export type Fault =
  | { kind: 'error'; code: number }
  /** Appends (or not, with `append: false`) and then fails the request as if the answer was lost. */
  | { kind: 'lose-answer'; append: boolean; as?: 'timeout' | 'disconnect' };

export interface ProduceCall {
  version: number;
  acks: number;
  partitions: {
    topic: string;
    partition: number;
    producerId: bigint;
    epoch: number;
    baseSequence: number;
    count: number;
    /** What the fake answered. */
    errorCode?: number;
  }[];
}

export class FakeBroker {
  readonly partitions = new Map<string, Partition[]>();
  readonly calls: ProduceCall[] = [];
  readonly noted: { err: unknown; topic?: string }[] = [];
  private readonly faults = new Map<string, Fault[]>();
  private nextProducerId = 1000n;
  /** Produce requests being answered right now, and the most at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** Milliseconds each Produce takes. */
  latencyMs = 1;
  produceVersion = 11;
  initProducerIdError = 0;
  /** Quota throttle time the broker reports in each Produce response. */
  throttleTimeMs = 0;
  /** When each Produce request arrived (epoch ms). */
  readonly arrivals: number[] = [];

  constructor(topics: Record<string, number>) {
    const fake = this;
    this.connection = {
      get isClosed() {
        return fake.closed;
      },
      versionFor: () => this.produceVersion,
      request: ((api: ApiDef, body: unknown, options: { version?: number; expectResponse?: boolean } = {}) =>
        this.handle(api, body, options)) as ProduceConnection['request'],
    };
    for (const [topic, count] of Object.entries(topics)) {
      this.partitions.set(
        topic,
        Array.from({ length: count }, () => ({ log: [], producers: new Map() })),
      );
    }
  }

  /** The next `times` Produce attempts that include topic-partition meet `fault`. */
  inject(topic: string, partition: number, fault: Fault, times = 1): void {
    const key = `${topic}/${partition}`;
    const list = this.faults.get(key) ?? [];
    for (let i = 0; i < times; i++) list.push(fault);
    this.faults.set(key, list);
  }

  /** The values in a partition's log, as strings, in offset order. */
  values(topic: string, partition = 0): string[] {
    return this.log(topic, partition).map((e) => e.record.value?.toString() ?? '<null>');
  }

  log(topic: string, partition = 0) {
    return this.partitions.get(topic)![partition].log;
  }

  /** Set to make new connections fail as a closed client's do (not retriable). */
  closed = false;

  readonly cluster: ProducerCluster = {
    topicMetadata: async (topic) => this.metadata(topic),
    connectionTo: async () => {
      if (this.closed) throw new ConnectionError('the client is closed', undefined, { retriable: false });
      return this.connection;
    },
    anyConnection: async () => this.connection,
    noteError: (err, topic) => {
      this.noted.push({ err, topic });
    },
  };

  readonly connection: ProduceConnection;

  metadata(topic: string): TopicMetadata {
    const partitions = this.partitions.get(topic);
    if (partitions === undefined) {
      throw kafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { context: { api: 'Metadata', topic } });
    }
    return {
      name: topic,
      topicId: undefined,
      isInternal: false,
      error: undefined,
      partitions: partitions.map((_, partition) => ({
        partition,
        leader: 1,
        leaderEpoch: 0,
        replicas: [1],
        isr: [1],
        offlineReplicas: [],
        error: undefined,
      })),
    };
  }

  private async handle(api: ApiDef, body: unknown, options: { version?: number; expectResponse?: boolean }) {
    if (api === InitProducerId) {
      await new Promise((r) => setTimeout(r, 1));
      if (this.initProducerIdError !== 0) {
        return { throttleTimeMs: 0, errorCode: this.initProducerIdError, producerId: -1n, producerEpoch: -1 };
      }
      return { throttleTimeMs: 0, errorCode: 0, producerId: this.nextProducerId++, producerEpoch: 0 };
    }
    if (api !== Produce) throw new Error(`fake broker does not speak ${api.name}`);
    const request = body as ProduceRequestInput;
    this.arrivals.push(Date.now());
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setTimeout(r, this.latencyMs));
      return this.produce(request, options.version ?? this.produceVersion, options.expectResponse !== false);
    } finally {
      this.inFlight--;
    }
  }

  private produce(request: ProduceRequestInput, version: number, expectResponse: boolean) {
    const call: ProduceCall = { version, acks: request.acks ?? 1, partitions: [] };
    this.calls.push(call);
    let lost: Fault | undefined;
    const responses: ProduceResponse['responses'] = [];
    for (const t of request.topicData ?? []) {
      const partitionResponses: ProduceResponse['responses'][number]['partitionResponses'] = [];
      for (const pd of t.partitionData ?? []) {
        const index = pd.index ?? 0;
        const [batch] = decodeRecords(Buffer.from(pd.records as Uint8Array)).batches;
        const topic = t.name as string;
        call.partitions.push({
          topic,
          partition: index,
          producerId: batch.producerId,
          epoch: batch.producerEpoch,
          baseSequence: batch.baseSequence,
          count: batch.records.length,
        });
        const fault = this.faults.get(`${topic}/${index}`)?.shift();
        let code = 0;
        let baseOffset = -1n;
        if (fault?.kind === 'error') code = fault.code;
        else if (fault === undefined || fault.append) [code, baseOffset] = this.append(topic, index, batch);
        if (fault?.kind === 'lose-answer') lost = fault;
        call.partitions[call.partitions.length - 1].errorCode = code;
        partitionResponses.push(partitionAnswer(index, code, baseOffset));
      }
      responses.push({ name: t.name as string, topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitionResponses });
    }
    if (lost?.kind === 'lose-answer') {
      if (lost.as === 'disconnect') throw new ConnectionError('fake connection lost', { host: 'fake', port: 1 });
      throw new RequestTimeoutError('Produce', version, 0, 1, 'fake:1');
    }
    if (!expectResponse) return undefined;
    return { responses, throttleTimeMs: this.throttleTimeMs, nodeEndpoints: [] };
  }

  /** Kafka's checks for an idempotent append (ProducerStateManager / ProducerAppendInfo), simplified. */
  private append(topic: string, partition: number, batch: RecordBatch): [number, bigint] {
    const p = this.partitions.get(topic)![partition];
    const next = BigInt(p.log.length);
    if (batch.producerId >= 0n) {
      const entry = p.producers.get(batch.producerId);
      const first = batch.baseSequence;
      const last = first + batch.records.length - 1;
      if (entry !== undefined) {
        if (batch.producerEpoch < entry.epoch) return [ErrorCode.INVALID_PRODUCER_EPOCH, -1n];
        if (batch.producerEpoch === entry.epoch) {
          const dup = entry.recent.find((r) => r.first === first && r.last === last);
          if (dup !== undefined) return [0, dup.baseOffset];
          if (first !== entry.lastSequence + 1) return [ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, -1n];
        } else if (first !== 0) return [ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, -1n];
      }
      // No state for this producer (new, or expired): Kafka accepts any first sequence.
      const updated: ProducerEntry =
        entry !== undefined && entry.epoch === batch.producerEpoch
          ? entry
          : { epoch: batch.producerEpoch, lastSequence: -1, recent: [] };
      updated.lastSequence = last;
      updated.recent.push({ first, last, baseOffset: next });
      if (updated.recent.length > 5) updated.recent.shift();
      p.producers.set(batch.producerId, updated);
    }
    for (const [i, record] of batch.records.entries()) p.log.push({ batch, record, offset: next + BigInt(i) });
    return [0, next];
  }
}

function partitionAnswer(index: number, errorCode: number, baseOffset: bigint) {
  return {
    index,
    errorCode,
    baseOffset,
    logAppendTimeMs: -1n,
    logStartOffset: 0n,
    recordErrors: [],
    errorMessage: null,
    currentLeader: { leaderId: -1, leaderEpoch: -1 },
  };
}
