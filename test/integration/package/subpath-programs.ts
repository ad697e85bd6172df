/**
 * Programs for the optional-peer entry points, tidemark/opentelemetry and tidemark/prometheus, as ESM and as
 * CommonJS: each loads both, checks that the channels it subscribes to are the core's (one copy of the library
 * whichever way it was loaded), registers a client's metrics, and prints one JSON line.
 */

const BODY = `
const unsubscribe = otel.instrumentOpenTelemetry();
const sameChannels = diagnostics.tracingChannel('tidemark:producer:send').start.hasSubscribers
  && core.TRACING_CHANNELS.producerSend.start.hasSubscribers;
unsubscribe();
const registry = new promClient.Registry();
const client = new core.Client({ bootstrap: '127.0.0.1:9' });
const remove = prom.registerPrometheusMetrics(client, { registry });
const registered = registry.getMetricsAsArray().some((m) => m.name === 'tidemark_requests_total');
remove();
client.close().then(() => {
  console.log(JSON.stringify({
    instrumentOpenTelemetry: typeof otel.instrumentOpenTelemetry,
    registerPrometheusMetrics: typeof prom.registerPrometheusMetrics,
    sameChannels,
    registered,
  }));
});
`;

/** ESM: named imports of both subpaths. */
export const SUBPATHS_ESM_PROGRAM = `import * as diagnostics from 'node:diagnostics_channel';
import * as core from 'tidemark';
import * as otel from 'tidemark/opentelemetry';
import * as prom from 'tidemark/prometheus';
import promClient from 'prom-client';
${BODY}`;

/** CommonJS: require of both subpaths. */
export const SUBPATHS_CJS_PROGRAM = `const diagnostics = require('node:diagnostics_channel');
const core = require('tidemark');
const otel = require('tidemark/opentelemetry');
const prom = require('tidemark/prometheus');
const promClient = require('prom-client');
${BODY}`;
