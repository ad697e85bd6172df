/** The client metrics' produce record count: sends are counted without a clock read, then folded in. */
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../src/observability/channels.js';
import { ClientMetricsRecorder } from '../../../src/observability/client-metrics.js';

describe('ClientMetricsRecorder, produce records', () => {
  it('counts send() and sendBatch() records at the next snapshot, and at the next Produce request', () => {
    const metrics = new ClientMetricsRecorder();
    const observer = metrics.producerObserver('c');
    observer.onSend(1);
    observer.onSend(10_000);
    expect(metrics.snapshot().produce.records.total).toBe(10_001);
    observer.onSend(5);
    metrics.requestObserver({
      apiName: 'Produce',
      address: 'b:9092',
      requestBytes: 100,
      responseBytes: 10,
      durationMs: 1,
    } as RequestContext);
    const m = metrics.snapshot();
    expect(m.produce.records.total).toBe(10_006);
    expect(m.produce.records.perSecond).toBeGreaterThan(0);
    expect(m.produce.requests.total).toBe(1);
  });
});
