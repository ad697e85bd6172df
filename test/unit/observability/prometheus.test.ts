/** The Prometheus collector when the snapshot throws: scrapes still answer (without samples), reported once. */
import { Registry } from 'prom-client';
import { afterEach, expect, it, vi } from 'vitest';
import { registerPrometheusMetrics } from '../../../src/observability/prometheus.js';

afterEach(() => vi.restoreAllMocks());

it('a metrics source that throws breaks no scrape and is reported once', async () => {
  const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
  const registry = new Registry();
  const source = {
    clientId: 'broken',
    metrics: () => {
      throw new Error('snapshot failed');
    },
  };
  const unregister = registerPrometheusMetrics(source, { registry });
  const first = await registry.metrics();
  await new Promise((r) => setTimeout(r, 300));
  const second = await registry.metrics();
  for (const text of [first, second]) {
    expect(text).toContain('# TYPE tidemark_requests_total counter');
    expect(text).not.toMatch(/^tidemark_\w+\{/m);
  }
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0][0])).toContain('snapshot failed');
  unregister();
  expect(registry.getMetricsAsArray()).toEqual([]);
});
