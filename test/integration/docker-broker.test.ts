/**
 * The container path (TIDEMARK_BROKER=docker). The project's CI machine has no Docker engine, so the
 * container test runs only where one answers; detection itself is always checked, since a slow or hanging
 * check would stall every integration run.
 */
import { describe, expect, it } from 'vitest';
import { dockerAvailable } from '../harness/docker-detect.js';
import { API_KEY, parseHostPort, probeApiVersions } from '../harness/probe.js';
import { DEFAULT_KAFKA_VERSION } from '../harness/versions.js';

const detectStart = Date.now();
const docker = await dockerAvailable();
const detectMs = Date.now() - detectStart;

describe('docker broker', () => {
  it('decides whether Docker is there in under 2 s', () => {
    expect(detectMs).toBeLessThan(2_000);
  });

  // Skipped without a Docker engine (as on the project's CI machine); never a failure there.
  it.skipIf(!docker)(
    'runs apache/kafka published on loopback and answers ApiVersions',
    { timeout: 300_000 },
    async () => {
      const { startDockerBroker } = await import('../harness/docker-broker.js');
      const broker = await startDockerBroker({ kafkaVersion: DEFAULT_KAFKA_VERSION, name: `test-${process.pid}` });
      try {
        expect(broker.bootstrap).toMatch(/^127\.0\.0\.1:\d+$/);
        const { host, port } = parseHostPort(broker.bootstrap);
        const result = await probeApiVersions(host, port);
        expect(result.errorCode).toBe(0);
        expect(result.apis.get(API_KEY.Fetch)?.min).toBeGreaterThanOrEqual(4);
        const sasl = parseHostPort(broker.saslBootstrap);
        expect((await probeApiVersions(sasl.host, sasl.port)).errorCode).toBe(0);
      } finally {
        await broker.stop();
      }
    },
  );
});
