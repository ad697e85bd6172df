/**
 * `client.metrics()`: one snapshot of what a client is doing. Requests are counted per API and broker (a
 * latency histogram, bytes, errors) by the observer its connections call; fetch and produce rates come from
 * those counts and from the sends of its producers; lag, commit latency and buffer use come from its consumers
 * and producers as they are when the snapshot is taken. Client level: it reads consumers and producers.
 */
import type { Consumer } from '../consumer/consumer.js';
import type { LatencySummary, PartitionLag } from '../consumer/metrics.js';
import type { Producer } from '../producer/producer.js';
import type { RequestContext } from './channels.js';
import type { ProducerObserver } from './producer-send.js';
import type { RequestObserver } from './requests.js';

/** Upper bounds (milliseconds) of the request latency histogram's buckets; the last bucket is unbounded. */
export const LATENCY_BUCKETS_MS: readonly number[] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

/** A latency histogram: `counts[i]` requests took at most `bucketsMs[i]` (not cumulative); the last is the rest. */
export interface LatencyHistogram {
  bucketsMs: readonly number[];
  /** One more entry than `bucketsMs`: the last counts the requests above the largest bound. */
  counts: number[];
  count: number;
  sumMs: number;
}

/** The requests of one API to one broker. */
export interface RequestMetrics {
  apiName: string;
  /** `host:port` of the broker. */
  broker: string;
  /** Requests that settled, failed ones included. */
  count: number;
  errors: number;
  requestBytes: number;
  responseBytes: number;
  latency: LatencyHistogram;
}

/** A count and its rate per second over the last minute (over the client's life when that is shorter). */
export interface Rate {
  total: number;
  perSecond: number;
}

/** One consumer of this client, as it is now. */
export interface ConsumerSnapshot {
  groupId: string | undefined;
  /** Lag per partition: the end of the log (high watermark, or last stable offset) minus the position. */
  lag: PartitionLag[];
  recordsDelivered: number;
  commitLatency: LatencySummary;
  commitFailures: number;
  /** Bytes held and reserved for fetches, against `bufferLimit` (the fetch memory budget, maxBufferedBytes). */
  bufferedBytes: number;
  bufferLimit: number;
}

/** One producer of this client, as it is now. */
export interface ProducerSnapshot {
  /** Bytes of records waiting to be sent, against `bufferLimit` (bufferMemory). */
  bufferedBytes: number;
  bufferLimit: number;
}

/** What `client.metrics()` returns. */
export interface ClientMetrics {
  /** Per API and broker, sorted by API then broker. */
  requests: RequestMetrics[];
  fetch: { requests: Rate; bytes: Rate };
  produce: { records: Rate; requests: Rate; bytes: Rate; errors: number };
  consumers: ConsumerSnapshot[];
  producers: ProducerSnapshot[];
}

const WINDOW_S = 60;

/** A count with the last minute in one-second buckets, for its rate. */
class RateMeter {
  total = 0;
  private readonly buckets = new Array<number>(WINDOW_S).fill(0);
  private second = Math.floor(performance.now() / 1000);
  private readonly born = this.second;

  add(n: number): void {
    this.roll();
    this.total += n;
    this.buckets[this.second % WINDOW_S] += n;
  }

  snapshot(): Rate {
    this.roll();
    const span = Math.min(WINDOW_S, this.second - this.born + 1);
    let recent = 0;
    for (const n of this.buckets) recent += n;
    return { total: this.total, perSecond: recent / span };
  }

  private roll(): void {
    const now = Math.floor(performance.now() / 1000);
    for (let s = Math.max(this.second + 1, now - WINDOW_S + 1); s <= now; s++) this.buckets[s % WINDOW_S] = 0;
    this.second = now;
  }
}

class RequestRecord {
  count = 0;
  errors = 0;
  requestBytes = 0;
  responseBytes = 0;
  sumMs = 0;
  readonly counts = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);

  constructor(
    readonly apiName: string,
    readonly broker: string,
  ) {}

  add(r: RequestContext): void {
    this.count++;
    if (r.error !== undefined) this.errors++;
    this.requestBytes += r.requestBytes;
    this.responseBytes += r.responseBytes;
    this.sumMs += r.durationMs;
    let i = 0;
    while (i < LATENCY_BUCKETS_MS.length && r.durationMs > LATENCY_BUCKETS_MS[i]) i++;
    this.counts[i]++;
  }

  snapshot(): RequestMetrics {
    const { apiName, broker, count, errors, requestBytes, responseBytes, sumMs } = this;
    const latency = { bucketsMs: LATENCY_BUCKETS_MS, counts: [...this.counts], count, sumMs };
    return { apiName, broker, count, errors, requestBytes, responseBytes, latency };
  }
}

/** A client's metrics: the observers its connections and producers call, and the snapshot. */
export class ClientMetricsRecorder {
  private readonly requests = new Map<string, RequestRecord>();
  private readonly fetchRequests = new RateMeter();
  private readonly fetchBytes = new RateMeter();
  private readonly produceRecords = new RateMeter();
  /**
   * Records sent and not yet added to produceRecords. A send only counts here (no clock read per record, a
   * measurable share of `send()`); the count goes into its one-second bucket at the next Produce request to
   * settle (a linger and a round trip later, so the rate is the same) or at the next snapshot.
   */
  private sendsUncounted = 0;
  private readonly produceRequests = new RateMeter();
  private readonly produceBytes = new RateMeter();
  private produceErrors = 0;
  private readonly consumers = new Set<Consumer>();
  private readonly producers = new Set<Producer>();

  /** Called by every connection of the client when a request settles. */
  readonly requestObserver: RequestObserver = (r) => {
    const key = `${r.apiName} ${r.address}`;
    let record = this.requests.get(key);
    if (record === undefined) {
      record = new RequestRecord(r.apiName, r.address);
      this.requests.set(key, record);
    }
    record.add(r);
    if (r.apiName === 'Fetch') {
      this.fetchRequests.add(1);
      this.fetchBytes.add(r.responseBytes);
    } else if (r.apiName === 'Produce') {
      this.countSends();
      this.produceRequests.add(1);
      this.produceBytes.add(r.requestBytes);
      if (r.error !== undefined) this.produceErrors++;
    }
  };

  /** What the client's producers report to. */
  producerObserver(clientId: string): ProducerObserver {
    return {
      clientId,
      onSend: (records) => {
        this.sendsUncounted += records;
      },
    };
  }

  private countSends(): void {
    if (this.sendsUncounted === 0) return;
    this.produceRecords.add(this.sendsUncounted);
    this.sendsUncounted = 0;
  }

  /** Counts `consumer` in the snapshots until it is closed. */
  trackConsumer(consumer: Consumer): void {
    this.consumers.add(consumer);
    untilClosed(consumer, () => this.consumers.delete(consumer));
  }

  /** Counts `producer` in the snapshots until it is closed. */
  trackProducer(producer: Producer): void {
    this.producers.add(producer);
    untilClosed(producer, () => this.producers.delete(producer));
  }

  snapshot(): ClientMetrics {
    this.countSends();
    const requests = [...this.requests.values()]
      .map((r) => r.snapshot())
      .sort((a, b) => a.apiName.localeCompare(b.apiName) || a.broker.localeCompare(b.broker));
    return {
      requests,
      fetch: { requests: this.fetchRequests.snapshot(), bytes: this.fetchBytes.snapshot() },
      produce: {
        records: this.produceRecords.snapshot(),
        requests: this.produceRequests.snapshot(),
        bytes: this.produceBytes.snapshot(),
        errors: this.produceErrors,
      },
      consumers: [...this.consumers].map(consumerSnapshot),
      producers: [...this.producers].map((p) => ({
        bufferedBytes: p.bufferedBytes,
        bufferLimit: p.options.bufferMemory,
      })),
    };
  }
}

function consumerSnapshot(consumer: Consumer): ConsumerSnapshot {
  const m = consumer.metrics();
  return {
    groupId: consumer.groupId,
    lag: m.lag,
    recordsDelivered: m.recordsDelivered,
    commitLatency: m.commitLatency,
    commitFailures: m.commitFailures,
    bufferedBytes: m.bufferedBytes,
    bufferLimit: consumer.options.maxBufferedBytes,
  };
}

/** Runs `forget` once `target.close()` has settled (its own close, wrapped on the instance). */
function untilClosed(target: { close(options?: never): Promise<void> }, forget: () => void): void {
  const close = target.close.bind(target);
  target.close = (options?: never) => close(options).finally(forget);
}
