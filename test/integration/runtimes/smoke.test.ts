/**
 * The broker smoke test on Bun and on Deno: test/runtimes/smoke.ts runs on each (the library's sources as that
 * runtime loads them) against each shared broker (Kafka 4.4 and 3.9) and a TLS broker of this file's own (mutual
 * TLS), and everything it prints is checked here, on Node, against what the broker and the files say:
 * - the topic was created and the records produced with every codec (none, gzip, snappy, lz4, zstd) are the
 *   records the group consumed, each once;
 * - the group's commits reached the broker (read back here), and the consumer published them on
 *   node:diagnostics_channel (`tidemark:consumer:commit`);
 * - the FileOffsetStore group left a gtoffset file that parses and holds the next offset of every partition;
 * - over mutual TLS the same round trip works, and without the client certificate the broker's refusal is a
 *   typed error that says so (with the 4.4 run only: the runtime's TLS path does not depend on the broker's
 *   version, and a 3.9 TLS broker would be one more JVM start).
 * The 3.9 run matters because the older broker negotiates older API versions (Produce without topic ids,
 * among others): codecs the runtime then runs that 4.4 never asks for.
 * The Node side of the same paths is covered by the rest of the integration suite; here the runtime is the variable.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { parseGtoffset } from '../../../src/offsets/file/gtoffset-format.js';
import { offsetFilePaths } from '../../../src/offsets/file/path-encoding.js';
import { type KafkaBroker, startBroker } from '../../harness/broker.js';
import { uniqueTopicName } from '../../harness/context.js';
import { SMOKE_CODECS, SMOKE_RECORDS_PER_CODEC, type SmokeConfig } from '../../runtimes/smoke-config.js';
import { targets } from '../offsets/setup.js';
import { REPO_ROOT, RUNTIMES, run } from './runtimes.js';

const SMOKE = path.join(REPO_ROOT, 'test/runtimes/smoke.ts');
const TOTAL = SMOKE_CODECS.length * SMOKE_RECORDS_PER_CODEC;

let tlsBroker: KafkaBroker;
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'tidemark-runtimes-'));
  tlsBroker = await startBroker({ name: `tm-runtimes-${process.pid}`, security: { tls: true } });
}, 180_000);

afterAll(async () => {
  await tlsBroker?.stop();
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
});

/** The JSON lines a run printed, by step. */
function steps(stdout: string): Map<string, Record<string, unknown>> {
  const lines = stdout.split('\n').filter((l) => l.startsWith('{'));
  return new Map(lines.map((l) => JSON.parse(l) as Record<string, unknown>).map((s) => [s.step as string, s]));
}

type Printed = { partition: number; offset: string; value: string };
const key = (r: Printed) => `${r.partition}:${r.offset}:${r.value}`;

/** Next offset per partition after `records`: what a group that processed them all commits. */
function nextOffsets(records: readonly Printed[]): Map<number, bigint> {
  const next = new Map<number, bigint>();
  for (const r of records) {
    const n = BigInt(r.offset) + 1n;
    if (n > (next.get(r.partition) ?? 0n)) next.set(r.partition, n);
  }
  return next;
}

const CASES = RUNTIMES.flatMap((runtime) =>
  targets().map((target) => ({ runtime, target, label: `${runtime.name} on ${target.label}` })),
);

// Every runtime on every broker at once (their own topics, groups and directories): the smoke mostly waits on the
// brokers.
describe.concurrent.each(CASES)('$label', ({ runtime, target }) => {
  const withTls = target.major >= 4;
  // The binaries are linux-x64 builds (the platform CI runs on); elsewhere npm installs neither.
  it.skipIf(runtime.binary === undefined)(
    `${runtime.name} ${runtime.version}: topic, produce with every codec, group commits, file store${withTls ? ', mutual TLS' : ''}`,
    async () => {
      const tls = tlsBroker.tls!;
      const name = `${runtime.name}-${target.major}`;
      const config: SmokeConfig = {
        bootstrap: target.bootstrap,
        topic: uniqueTopicName(`runtime-${name}`),
        groupId: `runtime-${name}-${process.pid}-${Date.now()}`,
        offsetsDir: path.join(workDir, name),
        tls: withTls
          ? {
              mtlsBootstrap: tls.mtlsBootstrap,
              topic: uniqueTopicName(`runtime-${name}-tls`),
              ca: tls.material.ca,
              clientCert: tls.material.clientCert,
              clientKey: tls.material.clientKey,
            }
          : undefined,
      };
      const configFile = path.join(workDir, `${name}.json`);
      await writeFile(configFile, JSON.stringify(config));

      const result = await run(runtime.binary!, runtime.script(SMOKE, configFile), 170_000);
      const context = `${runtime.name} exited ${result.code ?? result.signal} after ${result.ms} ms\n${result.stdout}\n${result.stderr}`;
      expect(result.code, context).toBe(0);
      const printed = steps(result.stdout);
      expect([...printed.keys()], context).toEqual([
        'runtime',
        'created',
        'produced',
        'consumed',
        'committed',
        'consumed-file-store',
        ...(withTls ? ['tls', 'tls-without-client-certificate'] : []),
        'done',
      ]);
      expect(printed.get('runtime')).toMatchObject({ name: runtime.name, version: runtime.version });

      const produced = printed.get('produced')!.records as Printed[];
      expect(produced).toHaveLength(TOTAL);
      expect(new Set(produced.map((r) => r.value))).toEqual(
        new Set(SMOKE_CODECS.flatMap((c) => Array.from({ length: SMOKE_RECORDS_PER_CODEC }, (_, i) => `${c}-${i}`))),
      );
      const expectedKeys = produced.map(key).sort();
      const consumed = printed.get('consumed')!;
      expect((consumed.records as Printed[]).map(key).sort()).toEqual(expectedKeys);
      expect(consumed.commitEvents as number).toBeGreaterThanOrEqual(1);

      // The group's commits: as the runtime read them back, and as the broker answers Node.
      const next = nextOffsets(produced);
      const expectedCommitted = [...next].map(([partition, offset]) => ({ partition, offset: offset.toString() }));
      const byPartition = (a: { partition: number }, b: { partition: number }) => a.partition - b.partition;
      const printedCommitted = (printed.get('committed')!.offsets as { partition: number; offset: string }[])
        .map(({ partition, offset }) => ({ partition, offset }))
        .sort(byPartition);
      expect(printedCommitted).toEqual(expectedCommitted.sort(byPartition));
      const client = new Client({ bootstrap: config.bootstrap });
      try {
        const fromBroker = await client.offsets.committed(config.groupId);
        expect(
          fromBroker.map((c) => ({ partition: c.partition, offset: c.offset?.toString() })).sort(byPartition),
        ).toEqual(expectedCommitted);
      } finally {
        await client.close();
      }

      // The file store: the same records, and a gtoffset file holding the next offset of each partition.
      const fileGroup = `${config.groupId}-file`;
      expect((printed.get('consumed-file-store')!.records as Printed[]).map(key).sort()).toEqual(expectedKeys);
      const gtoffset = offsetFilePaths(config.offsetsDir, fileGroup, config.topic).file;
      const content = parseGtoffset(await readFile(gtoffset), gtoffset, { group: fileGroup, topic: config.topic });
      expect(new Map([...content.partitions].map(([p, stored]) => [p, stored.offset]))).toEqual(next);

      if (!withTls) {
        console.log(`${runtime.name} smoke on ${target.label}: ${result.ms} ms`);
        return;
      }
      // Mutual TLS: one gzip batch round trip and its commit; without the client certificate, a refusal that says so.
      const overTls = printed.get('tls')!;
      expect((overTls.records as Printed[]).map((r) => r.value)).toEqual(
        Array.from({ length: SMOKE_RECORDS_PER_CODEC }, (_, i) => `gzip-${i}`),
      );
      expect(overTls.committed).toEqual([
        { topic: config.tls!.topic, partition: 0, offset: String(SMOKE_RECORDS_PER_CODEC) },
      ]);
      const refused = printed.get('tls-without-client-certificate')!.refused as { name: string; message: string };
      expect(refused, context).toBeDefined();
      expect(refused.message).toMatch(/client certificate.*check tls\.cert and tls\.key/);
      console.log(
        `${runtime.name} smoke: ${result.ms} ms; without a client certificate: ${refused.name}: ${refused.message}`,
      );
    },
    240_000,
  );
});
