/**
 * The broker harness itself: the brokers this run was given are real Kafka of the expected generations,
 * and the CLI's start/status/stop contract holds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../harness/cli.js';
import {
  bootstrap,
  kafkaVersion,
  legacyBootstrap,
  legacyKafkaVersion,
  legacySaslBootstrap,
  saslBootstrap,
  uniqueTopicName,
} from '../harness/context.js';
import { API_KEY, isPortOpen, parseHostPort, probeApiVersions, probeMetadata } from '../harness/probe.js';
import { isOurProcess } from '../harness/process.js';
import { DATA_DIR_PREFIX, listStateNames, readState, stateFile, writeState } from '../harness/state.js';
import { kafkaMajor } from '../harness/versions.js';

const SASL_HANDSHAKE = 17;
const SASL_AUTHENTICATE = 36;

/** Exact ranges of the pinned versions; other versions are checked by generation only. */
const KNOWN: Record<string, Record<number, [number, number]>> = {
  '4.4.0': { [API_KEY.Fetch]: [4, 18], [API_KEY.ListOffsets]: [1, 11], [API_KEY.OffsetCommit]: [2, 10] },
  '3.9.1': { [API_KEY.Fetch]: [0, 17], [API_KEY.ListOffsets]: [0, 9], [API_KEY.OffsetCommit]: [0, 9] },
};

async function apiVersionsOf(address: string) {
  const { host, port } = parseHostPort(address);
  const result = await probeApiVersions(host, port);
  expect(result.errorCode).toBe(0);
  return result.apis;
}

function captureIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l) };
}

describe('4.x broker', () => {
  it('answers ApiVersions without the protocol versions KIP-896 removed', async () => {
    const apis = await apiVersionsOf(bootstrap());
    const fetch = apis.get(API_KEY.Fetch)!;
    expect(fetch.max).toBeGreaterThanOrEqual(17);
    const version = kafkaVersion();
    if (version === null || kafkaMajor(version) < 4) return; // external cluster of unknown generation
    expect(fetch.min).toBeGreaterThanOrEqual(4);
    expect(apis.get(API_KEY.OffsetCommit)!.min).toBeGreaterThanOrEqual(2);
    for (const [key, [min, max]] of Object.entries(KNOWN[version] ?? {})) {
      expect({ key: Number(key), ...apis.get(Number(key)) }).toEqual({ key: Number(key), min, max });
    }
  });

  it('lists itself in Metadata under the address it was reached at', async () => {
    const { host, port } = parseHostPort(bootstrap());
    const metadata = await probeMetadata(host, port);
    expect(metadata.clusterId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(metadata.brokers.some((b) => b.port === port)).toBe(true);
  });

  it.skipIf(!saslBootstrap())('has a SASL listener that offers SaslHandshake and SaslAuthenticate', async () => {
    const apis = await apiVersionsOf(saslBootstrap()!);
    expect(apis.get(SASL_HANDSHAKE)?.max).toBeGreaterThanOrEqual(1);
    expect(apis.get(SASL_AUTHENTICATE)?.max).toBeGreaterThanOrEqual(1);
  });
});

// Without KAFKA_BOOTSTRAP_LEGACY an external cluster run has no 3.9 broker.
describe.skipIf(!legacyBootstrap())('3.9 broker', () => {
  it('still serves the old protocol versions', async () => {
    const apis = await apiVersionsOf(legacyBootstrap()!);
    const version = legacyKafkaVersion();
    expect(apis.get(API_KEY.Fetch)?.min).toBe(0);
    expect(apis.get(API_KEY.OffsetCommit)?.min).toBe(0);
    for (const [key, [min, max]] of Object.entries((version && KNOWN[version]) || {})) {
      expect({ key: Number(key), ...apis.get(Number(key)) }).toEqual({ key: Number(key), min, max });
    }
  });

  it.skipIf(!legacySaslBootstrap())('has its SASL listener open', async () => {
    const { host, port } = parseHostPort(legacySaslBootstrap()!);
    expect(await isPortOpen(host, port)).toBe(true);
  });
});

describe('context helpers', () => {
  it('makes distinct, legal topic names', () => {
    const a = uniqueTopicName('harness test/1');
    const b = uniqueTopicName('harness test/1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^harness-test-1-[a-z0-9]+-[0-9a-f]{8}$/);
  });
});

// With KAFKA_BOOTSTRAP or containers the machine may have no Java/Maven: don't start a jar broker here either.
const jarBrokers = !process.env.KAFKA_BOOTSTRAP && process.env.TIDEMARK_BROKER !== 'docker';

describe('CLI', () => {
  const name = `harness-test-${process.pid}`;

  it('reports the run broker as running with its addresses', async ({ skip }) => {
    let runName: string | undefined;
    for (const n of await listStateNames()) if ((await readState(n))?.bootstrap === bootstrap()) runName = n;
    if (!runName) return skip(); // external cluster or container: no state file of ours
    const io = captureIo();
    expect(await runCli(['status', '--name', runName], io)).toBe(0);
    expect(io.stdout).toContain(`KAFKA_BOOTSTRAP=${bootstrap()}`);
    expect(io.stdout).toContain(`KAFKA_SASL_BOOTSTRAP=${saslBootstrap()}`);
  });

  it('fails status and stop for a broker that does not exist', async () => {
    const io = captureIo();
    expect(await runCli(['status', '--name', `${name}-none`], io)).toBe(1);
    expect(await runCli(['stop', '--name', `${name}-none`], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/no broker "harness-test-\d+-none"/);
    expect(io.stdout).toEqual([]);
  });

  it('rejects bad usage with exit code 2', async () => {
    const io = captureIo();
    expect(await runCli(['launch'], io)).toBe(2);
    expect(await runCli(['stop', '--kafka-version', '3.9.1'], io)).toBe(2);
    expect(await runCli(['start', '--name', '../escape'], io)).toBe(1);
  });

  it('cleans up a stale state file whose broker process is gone', async () => {
    // A pid that certainly existed and is now gone: a child we waited for.
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `${DATA_DIR_PREFIX}${name}-stale-`));
    await writeState({
      name: `${name}-stale`,
      kafkaVersion: '4.4.0',
      pid: dead,
      ports: { plaintext: 1, sasl: 2, controller: 3 },
      bootstrap: '127.0.0.1:1',
      saslBootstrap: '127.0.0.1:2',
      dataDir,
      logFile: path.join(dataDir, 'server.log'),
      startedAt: new Date().toISOString(),
      ownerPid: null,
    });
    const io = captureIo();
    expect(await runCli(['status', '--name', `${name}-stale`], io)).toBe(1);
    expect(existsSync(stateFile(`${name}-stale`))).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  });

  it.skipIf(!jarBrokers)(
    'starts a detached broker, reports it, stops it and removes its data',
    { timeout: 240_000 },
    async () => {
      const io = captureIo();
      const started = await runCli(['start', '--name', name, '--kafka-version', '3.9.1', '--timeout', '180'], io);
      expect(started, io.stderr.join('\n')).toBe(0);
      try {
        const address = io.stdout.find((l) => l.startsWith('KAFKA_BOOTSTRAP_LEGACY='))?.split('=')[1];
        expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
        expect((await apiVersionsOf(address!)).get(API_KEY.Fetch)?.min).toBe(0);
        const state = (await readState(name))!;
        expect(state.ownerPid).toBeNull(); // detached: outlives the CLI process
        expect(existsSync(state.dataDir)).toBe(true);

        const status = captureIo();
        expect(await runCli(['status', '--name', name], status)).toBe(0);
        expect(status.stdout).toEqual(io.stdout);
        expect(await runCli(['start', '--name', name, '--kafka-version', '3.9.1'], captureIo())).toBe(1);

        expect(await runCli(['stop', '--name', name], captureIo())).toBe(0);
        expect(existsSync(state.dataDir)).toBe(false);
        expect(await readState(name)).toBeNull();
        expect(isOurProcess(state.pid, state.dataDir)).toBe(false);
        expect(await runCli(['status', '--name', name], captureIo())).toBe(1);
      } finally {
        await runCli(['stop', '--name', name], captureIo());
      }
    },
  );
});
