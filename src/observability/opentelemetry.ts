/**
 * `tidemark/opentelemetry`: spans for producer sends and consumer batches, following OpenTelemetry's messaging
 * semantic conventions for Kafka, built from the client's tracing channels (channels.ts). A send is a PRODUCER
 * span `send <topic>` whose context travels in the record's `traceparent` header; a delivered batch is a CLIENT
 * span `poll <topic>` (the wait for it) and a CONSUMER span `process <topic>` (the application's work on it)
 * linked to every producer context its records carry, and parented to it when the batch is one record.
 *
 * `@opentelemetry/api` is an optional peer dependency: only this entry point imports it, the core never does.
 * A tracer that throws never breaks the client: the error is caught and reported once (report-once.ts).
 */
import {
  type Context,
  context as contextApi,
  type Link,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import {
  type BatchRecordView,
  type ConsumerBatchContext,
  type HeaderCarrier,
  type ProducerSendContext,
  TRACING_CHANNELS,
} from './channels.js';
import { reportHookError } from './report-once.js';
import { w3cTraceContext } from './w3c-trace-context.js';

/** How to trace. */
export interface OpenTelemetryOptions {
  /** Where the tracer comes from. Default: the global provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /**
   * How span contexts go into and come out of record headers. Default: W3C Trace Context (`traceparent`,
   * `tracestate`), built in; pass `propagation` from `@opentelemetry/api` to use the globally registered one.
   */
  propagator?: TextMapPropagator;
}

const TRACER_NAME = 'tidemark';

/** Reads the headers of a consumed record; the last value of a key wins, as Kafka's Java client reads it. */
const recordHeaders: TextMapGetter<BatchRecordView> = {
  keys: (record) => record.headers.map((h) => h.key),
  get: (record, key) => {
    for (let i = record.headers.length - 1; i >= 0; i--) {
      const h = record.headers[i];
      if (h.key === key) return h.value?.toString('utf8');
    }
    return undefined;
  },
};

const carrierSetter: TextMapSetter<HeaderCarrier> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/**
 * Starts tracing every producer and consumer of the process; returns the function that stops it. Call it once,
 * after the tracer provider is registered (or pass the provider).
 */
export function instrumentOpenTelemetry(options: OpenTelemetryOptions = {}): () => void {
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer: Tracer = provider.getTracer(TRACER_NAME);
  const propagator = options.propagator ?? w3cTraceContext;
  const guard =
    <C>(handler: (ctx: C) => void) =>
    (ctx: C) => {
      try {
        handler(ctx);
      } catch (error) {
        reportHookError(tracer, 'the OpenTelemetry tracer', error);
      }
    };
  const sends = new WeakMap<ProducerSendContext, Span>();
  const batches = new WeakMap<ConsumerBatchContext, Span>();
  const none = () => {};

  const sendHandlers = {
    start: guard((ctx: ProducerSendContext) => {
      const span = tracer.startSpan(
        `send ${ctx.topic}`,
        { kind: SpanKind.PRODUCER, attributes: sendAttributes(ctx) },
        contextApi.active(),
      );
      sends.set(ctx, span);
      propagator.inject(trace.setSpan(contextApi.active(), span), ctx.headers, carrierSetter);
    }),
    end: none,
    asyncStart: none,
    asyncEnd: guard((ctx: ProducerSendContext) => {
      const span = sends.get(ctx);
      if (span === undefined) return;
      sends.delete(ctx);
      if (ctx.error !== undefined) failed(span, ctx.error);
      else if (ctx.result !== undefined) {
        span.setAttribute('messaging.destination.partition.id', String(ctx.result.partition));
        if (ctx.result.offset >= 0n) span.setAttribute('messaging.kafka.offset', Number(ctx.result.offset));
      }
      span.end();
    }),
    error: none,
  };

  const batchHandlers = {
    start: guard((ctx: ConsumerBatchContext) => {
      const attributes = batchAttributes(ctx);
      const origins = producerContexts(ctx.records, propagator);
      const toEpoch = (t: number) => performance.timeOrigin + t;
      const poll = tracer.startSpan(
        `poll ${ctx.topic}`,
        {
          kind: SpanKind.CLIENT,
          startTime: toEpoch(ctx.requestedAt),
          attributes: { ...attributes, 'messaging.operation.type': 'receive', 'messaging.operation.name': 'poll' },
        },
        contextApi.active(),
      );
      poll.end(toEpoch(ctx.deliveredAt));
      const links: Link[] = origins.map((context) => ({ context }));
      // One record: its producer's span is the parent (the conventions allow it); a batch links to them all.
      const parent: Context =
        ctx.records.length === 1 && origins.length === 1
          ? trace.setSpanContext(ROOT_CONTEXT, origins[0])
          : contextApi.active();
      const span = tracer.startSpan(
        `process ${ctx.topic}`,
        {
          kind: SpanKind.CONSUMER,
          startTime: toEpoch(ctx.deliveredAt),
          links,
          attributes: { ...attributes, 'messaging.operation.type': 'process', 'messaging.operation.name': 'process' },
        },
        parent,
      );
      batches.set(ctx, span);
    }),
    end: guard((ctx: ConsumerBatchContext) => {
      const span = batches.get(ctx);
      if (span === undefined) return;
      batches.delete(ctx);
      span.setAttribute('tidemark.batch.processed', ctx.processed === true);
      span.end(ctx.doneAt === undefined ? undefined : performance.timeOrigin + ctx.doneAt);
    }),
    asyncStart: none,
    asyncEnd: none,
    error: none,
  };

  TRACING_CHANNELS.producerSend.subscribe(sendHandlers);
  TRACING_CHANNELS.consumerBatch.subscribe(batchHandlers);
  return () => {
    TRACING_CHANNELS.producerSend.unsubscribe(sendHandlers);
    TRACING_CHANNELS.consumerBatch.unsubscribe(batchHandlers);
  };
}

function sendAttributes(ctx: ProducerSendContext): Record<string, string | number> {
  const attributes: Record<string, string | number> = {
    'messaging.system': 'kafka',
    'messaging.operation.type': 'send',
    'messaging.operation.name': 'send',
    'messaging.destination.name': ctx.topic,
    'messaging.client.id': ctx.clientId,
  };
  const { key, partition } = ctx.record;
  if (typeof key === 'string') attributes['messaging.kafka.message.key'] = key;
  if (partition !== undefined) attributes['messaging.destination.partition.id'] = String(partition);
  return attributes;
}

function batchAttributes(ctx: ConsumerBatchContext): Record<string, string | number> {
  const attributes: Record<string, string | number> = {
    'messaging.system': 'kafka',
    'messaging.destination.name': ctx.topic,
    'messaging.destination.partition.id': String(ctx.partition),
    'messaging.client.id': ctx.clientId,
    'messaging.batch.message_count': ctx.records.length,
    'messaging.kafka.offset': Number(ctx.firstOffset),
  };
  if (ctx.groupId !== undefined) attributes['messaging.consumer.group.name'] = ctx.groupId;
  return attributes;
}

/** The distinct valid span contexts the records carry, in record order. */
function producerContexts(records: readonly BatchRecordView[], propagator: TextMapPropagator): SpanContext[] {
  const seen = new Set<string>();
  const out: SpanContext[] = [];
  for (const record of records) {
    if (!record.headers.some((h) => h.key === 'traceparent') && propagator === w3cTraceContext) continue;
    const span = trace.getSpanContext(propagator.extract(ROOT_CONTEXT, record, recordHeaders));
    if (span === undefined || !trace.isSpanContextValid(span)) continue;
    const id = `${span.traceId}-${span.spanId}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(span);
  }
  return out;
}

function failed(span: Span, error: unknown): void {
  const e = error instanceof Error ? error : new Error(String(error));
  span.recordException(e);
  span.setStatus({ code: SpanStatusCode.ERROR, message: e.message });
  span.setAttribute('error.type', e.name);
}
