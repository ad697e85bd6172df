/**
 * tidemark/opentelemetry against the real brokers, with the SDK's in-memory exporter: a send is a PRODUCER span
 * whose context travels in the record's traceparent header, and the consumer's process span of that record is
 * its child and links to it, with the Kafka messaging attributes. A tracer that throws breaks nothing.
 */
import { SpanKind } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../../../src/client.js';
import { instrumentOpenTelemetry } from '../../../src/observability/opentelemetry.js';
import { newTopic, targets, uniqueGroup } from '../consumer/setup.js';
import { readProcessed } from './read.js';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.restoreAllMocks();
});

async function consumeAll(client: Client, topic: string, count: number, groupId: string) {
  const consumer = client.consumer({ groupId, autoOffsetReset: 'earliest' });
  consumer.assign([{ topic, partition: 0 }]);
  const records = [];
  for await (const record of consumer.records()) {
    records.push(record);
    if (records.length >= count) break;
  }
  await consumer.close();
  return records;
}

describe.each(targets())('OpenTelemetry ($label)', (target) => {
  it('send → process: the process span is the child of the send span and links to it', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    stops.push(instrumentOpenTelemetry({ tracerProvider: provider }));
    const client = new Client({ bootstrap: target.bootstrap, clientId: 'obs-otel', requestTimeoutMs: 15_000 });
    try {
      const topic = await newTopic(client, 'obs-otel');
      const producer = client.producer({ lingerMs: 0 });
      // The send span's parent is the active context; without a context manager (none is installed) that is
      // the root, so the send starts the trace.
      await producer.send({ topic, key: 'k1', value: 'v1', headers: { own: 'header' } });
      await producer.close();

      const groupId = uniqueGroup('obs-otel');
      const [record] = await consumeAll(client, topic, 1, groupId);
      // The application's own header is kept, the trace context follows it.
      expect(record.headers.map((h) => h.key)).toEqual(['own', 'traceparent']);

      const spans = exporter.getFinishedSpans();
      const byName = (name: string) => spans.filter((s) => s.name === name);
      const [send] = byName(`send ${topic}`);
      const [poll] = byName(`poll ${topic}`);
      const [process] = byName(`process ${topic}`);
      expect([send, poll, process].every((s) => s !== undefined)).toBe(true);

      expect(send.kind).toBe(SpanKind.PRODUCER);
      expect(send.parentSpanContext).toBeUndefined();
      expect(send.attributes).toMatchObject({
        'messaging.system': 'kafka',
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'send',
        'messaging.destination.name': topic,
        'messaging.destination.partition.id': '0',
        'messaging.kafka.offset': 0,
        'messaging.kafka.message.key': 'k1',
        'messaging.client.id': 'obs-otel',
      });
      const sent = send.spanContext();
      const traceparent = record.headers.find((h) => h.key === 'traceparent')?.value?.toString();
      expect(traceparent).toBe(`00-${sent.traceId}-${sent.spanId}-01`);

      expect(process.kind).toBe(SpanKind.CONSUMER);
      expect(process.spanContext().traceId).toBe(sent.traceId);
      expect(process.parentSpanContext?.spanId).toBe(sent.spanId);
      expect(process.links.map((l) => l.context.spanId)).toEqual([sent.spanId]);
      expect(process.attributes).toMatchObject({
        'messaging.system': 'kafka',
        'messaging.operation.type': 'process',
        'messaging.destination.name': topic,
        'messaging.destination.partition.id': '0',
        'messaging.consumer.group.name': groupId,
        'messaging.client.id': 'obs-otel',
        'messaging.batch.message_count': 1,
        'messaging.kafka.offset': 0,
      });
      expect(poll.kind).toBe(SpanKind.CLIENT);
      expect(poll.attributes['messaging.operation.type']).toBe('receive');
      const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
      expect(ms(poll.endTime)).toBeLessThanOrEqual(ms(process.startTime) + 1);
    } finally {
      await client.close();
    }
  });

  it('a batch of records from several sends links to every send', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    stops.push(instrumentOpenTelemetry({ tracerProvider: provider }));
    const client = new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
    try {
      const topic = await newTopic(client, 'obs-otel-batch');
      const producer = client.producer({ lingerMs: 50 });
      await Promise.all([0, 1, 2].map((i) => producer.send({ topic, value: `v${i}` })));
      await producer.close();
      const consumer = client.consumer({ autoOffsetReset: 'earliest' });
      consumer.assign([{ topic, partition: 0 }]);
      expect(await readProcessed(consumer, 3)).toBe(3);
      await consumer.close();
      const spans = exporter.getFinishedSpans();
      const sends = spans.filter((s) => s.name === `send ${topic}`).map((s) => s.spanContext().spanId);
      const processes = spans.filter((s) => s.name === `process ${topic}`);
      expect(sends).toHaveLength(3);
      const linked = processes.flatMap((p: ReadableSpan) => p.links.map((l) => l.context.spanId));
      expect(linked.sort()).toEqual([...sends].sort());
      expect(processes.every((p) => p.attributes['tidemark.batch.processed'] === true)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('a tracer that throws breaks neither sends nor consumption, and is reported once', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const broken = {
      getTracer: () => ({
        startSpan: () => {
          throw new Error('tracer exploded');
        },
        startActiveSpan: () => {
          throw new Error('tracer exploded');
        },
      }),
    };
    stops.push(instrumentOpenTelemetry({ tracerProvider: broken as never }));
    let thrownLater: unknown;
    const onUncaught = (err: unknown) => {
      thrownLater = err;
    };
    process.on('uncaughtException', onUncaught);
    const client = new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
    try {
      const topic = await newTopic(client, 'obs-otel-broken');
      const producer = client.producer({ lingerMs: 0 });
      const sent = [];
      for (let i = 0; i < 3; i++) sent.push(await producer.send({ topic, value: `v${i}` }));
      await producer.close();
      expect(sent.map((m) => m.offset)).toEqual([0n, 1n, 2n]);
      const records = await consumeAll(client, topic, 3, uniqueGroup('obs-otel-broken'));
      expect(records.map((r) => r.value?.toString())).toEqual(['v0', 'v1', 'v2']);
      await new Promise((r) => setImmediate(r));
      expect(thrownLater).toBeUndefined();
      const reports = warn.mock.calls.filter((c) => String(c[0]).includes('OpenTelemetry tracer'));
      expect(reports).toHaveLength(1);
      expect(String(reports[0][0])).toContain('tracer exploded');
    } finally {
      process.off('uncaughtException', onUncaught);
      await client.close();
    }
  });
});
