/**
 * `tidemark/prometheus`: a client's metrics() as Prometheus metrics, through prom-client (an optional peer
 * dependency: only this entry point imports it). Every scrape reads one fresh snapshot; nothing is counted twice.
 * Requests: `tidemark_requests_total`, `tidemark_request_errors_total`, `tidemark_request_duration_seconds`
 * (a histogram), request and response bytes, per `api` and `broker`. Rates: produce records, fetch requests and
 * bytes. Consumers: lag per group, topic and partition, commit latency, buffer use; producers: buffer use.
 */
import { type Registry, register } from 'prom-client';
import type { ClientMetrics } from './client-metrics.js';
import { reportHookError } from './report-once.js';

/** Where to register and how to name. */
export interface PrometheusOptions {
  /** Default: prom-client's global registry. */
  registry?: Registry;
  /** Put before every metric name. Default `tidemark_`. */
  prefix?: string;
}

/** What the collector reads: a Client (its metrics() and clientId). */
export interface MetricsSource {
  metrics(): ClientMetrics;
  readonly clientId: string;
}

type Labels = Record<string, string | number>;
interface Sample {
  value: number;
  labels: Labels;
  metricName?: string;
}
interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  samples: (m: ClientMetrics, client: Labels) => Sample[];
}

const FAMILIES: Family[] = [
  counter('requests_total', 'Requests settled, per API and broker.', (m, c) =>
    m.requests.map((r) => ({ value: r.count, labels: { ...c, api: r.apiName, broker: r.broker } })),
  ),
  counter('request_errors_total', 'Requests that failed, per API and broker.', (m, c) =>
    m.requests.map((r) => ({ value: r.errors, labels: { ...c, api: r.apiName, broker: r.broker } })),
  ),
  counter('request_bytes_total', 'Bytes written in requests, per API and broker.', (m, c) =>
    m.requests.map((r) => ({ value: r.requestBytes, labels: { ...c, api: r.apiName, broker: r.broker } })),
  ),
  counter('response_bytes_total', 'Bytes of responses, per API and broker.', (m, c) =>
    m.requests.map((r) => ({ value: r.responseBytes, labels: { ...c, api: r.apiName, broker: r.broker } })),
  ),
  {
    name: 'request_duration_seconds',
    help: 'Request latency, per API and broker.',
    type: 'histogram',
    samples: (m, c) => m.requests.flatMap((r) => histogramSamples('request_duration_seconds', r, c)),
  },
  counter('produce_records_total', 'Records handed to send().', (m, c) => [
    { value: m.produce.records.total, labels: c },
  ]),
  gauge('produce_records_per_second', 'Records handed to send() per second, over the last minute.', (m, c) => [
    { value: m.produce.records.perSecond, labels: c },
  ]),
  counter('fetch_requests_total', 'Fetch requests settled.', (m, c) => [{ value: m.fetch.requests.total, labels: c }]),
  gauge('fetch_bytes_per_second', 'Fetch response bytes per second, over the last minute.', (m, c) => [
    { value: m.fetch.bytes.perSecond, labels: c },
  ]),
  gauge('consumer_lag', 'Records between the position and the end of the log, per partition.', (m, c) =>
    m.consumers.flatMap((k) =>
      k.lag.map((p) => ({
        value: Number(p.lag),
        labels: { ...c, group: k.groupId ?? '', topic: p.topic, partition: p.partition },
      })),
    ),
  ),
  gauge('consumer_commit_latency_avg_seconds', 'Average commit latency.', (m, c) =>
    m.consumers.map((k) => ({ value: k.commitLatency.avgMs / 1000, labels: { ...c, group: k.groupId ?? '' } })),
  ),
  gauge('consumer_buffered_bytes', 'Bytes fetched ahead and reserved, against the buffer limit.', (m, c) =>
    m.consumers.map((k) => ({ value: k.bufferedBytes, labels: { ...c, group: k.groupId ?? '' } })),
  ),
  gauge('consumer_buffer_limit_bytes', 'The fetch memory budget (maxBufferedBytes).', (m, c) =>
    m.consumers.map((k) => ({ value: k.bufferLimit, labels: { ...c, group: k.groupId ?? '' } })),
  ),
  gauge('producer_buffered_bytes', 'Bytes of records waiting to be sent, summed over producers.', (m, c) => [
    { value: m.producers.reduce((n, p) => n + p.bufferedBytes, 0), labels: c },
  ]),
];

function counter(name: string, help: string, samples: Family['samples']): Family {
  return { name, help, type: 'counter', samples };
}

function gauge(name: string, help: string, samples: Family['samples']): Family {
  return { name, help, type: 'gauge', samples };
}

function histogramSamples(name: string, r: ClientMetrics['requests'][number], client: Labels): Sample[] {
  const labels = { ...client, api: r.apiName, broker: r.broker };
  const out: Sample[] = [];
  let cumulative = 0;
  r.latency.bucketsMs.forEach((bound, i) => {
    cumulative += r.latency.counts[i];
    out.push({ metricName: `${name}_bucket`, value: cumulative, labels: { ...labels, le: bound / 1000 } });
  });
  out.push({ metricName: `${name}_bucket`, value: r.latency.count, labels: { ...labels, le: '+Inf' } });
  out.push({ metricName: `${name}_sum`, value: r.latency.sumMs / 1000, labels });
  out.push({ metricName: `${name}_count`, value: r.latency.count, labels });
  return out;
}

/**
 * Registers `client`'s metrics with prom-client; returns the function that removes them. Every metric is
 * labelled `client_id`. A snapshot that cannot be taken is reported once and scrapes then show no samples.
 */
export function registerPrometheusMetrics(client: MetricsSource, options: PrometheusOptions = {}): () => void {
  const registry = options.registry ?? register;
  const prefix = options.prefix ?? 'tidemark_';
  const clientLabels = { client_id: client.clientId };
  // One snapshot serves every family of a scrape (prom-client asks the families one after another).
  let cached: { at: number; metrics: ClientMetrics | undefined } | undefined;
  const snapshot = (): ClientMetrics | undefined => {
    const now = performance.now();
    if (cached !== undefined && now - cached.at < 250) return cached.metrics;
    let metrics: ClientMetrics | undefined;
    try {
      metrics = client.metrics();
    } catch (error) {
      reportHookError(client, 'client.metrics() for Prometheus', error);
    }
    cached = { at: now, metrics };
    return metrics;
  };
  const names: string[] = [];
  for (const family of FAMILIES) {
    const name = `${prefix}${family.name}`;
    const metric = {
      name,
      help: family.help,
      type: family.type,
      aggregator: 'sum',
      collect: () => {},
      reset: () => {},
      get: async () => {
        const m = snapshot();
        const values = m === undefined ? [] : family.samples(m, clientLabels);
        for (const v of values) if (v.metricName !== undefined) v.metricName = `${prefix}${v.metricName}`;
        return { name, help: family.help, type: family.type, aggregator: 'sum', values };
      },
    };
    registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
    names.push(name);
  }
  return () => {
    for (const name of names) registry.removeSingleMetric(name);
  };
}
