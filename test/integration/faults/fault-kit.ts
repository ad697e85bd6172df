/**
 * Shared pieces of the network and broker fault suites: a consumer host whose every connection goes through
 * the fault proxy, deadlines that turn a hang into a failed assertion, a tally that checks every record was
 * delivered exactly once, in order and intact, and the one JSON line per suite the reliability table is
 * filled from.
 */
import { afterAll, beforeAll } from 'vitest';
import { TidemarkError } from '../../../codecs/errors.js';
import { Offsets } from '../../../src/admin/offsets.js';
import type { Client } from '../../../src/client.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import type { ConsumerHost } from '../../../src/consumer/consumer.js';
import type { ConsumerRecord } from '../../../src/consumer/consumer-record.js';
import { Coordinators } from '../../../src/coordinator/coordinators.js';
import { FaultProxy } from '../../harness/fault-proxy.js';
import { newClient, newTopic, produce, recordValue, type Target } from '../consumer/setup.js';

/** Kafka API keys the suites aim faults at. */
export const API = { Fetch: 1, OffsetCommit: 8, OffsetFetch: 9, Metadata: 3 } as const;

export interface ProxiedHost extends ConsumerHost {
  readonly offsets: Offsets;
  close(): Promise<void>;
}

/** What a Client is to a Consumer, with every connection (bootstrap, leaders, coordinator) through `proxy`. */
export function proxiedHost(bootstrap: string, proxy: FaultProxy, options: { requestTimeoutMs: number }): ProxiedHost {
  const cluster = new Cluster({
    bootstrap: [bootstrap],
    socketFactory: proxy.socketFactory,
    requestTimeoutMs: options.requestTimeoutMs,
    connectTimeoutMs: options.requestTimeoutMs,
  });
  const coordinators = new Coordinators(cluster, { requestTimeoutMs: options.requestTimeoutMs });
  const offsets = new Offsets({ cluster, coordinators, requestTimeoutMs: options.requestTimeoutMs });
  return { cluster, coordinators, offsets, close: () => cluster.close() };
}

/** One suite's stage: a fault-free admin client, a topic full of test records, and a host behind the proxy. */
export interface FaultScene {
  admin: Client;
  topic: string;
  proxy: FaultProxy;
  host: ProxiedHost;
}

export interface FaultSceneOptions {
  /** Prefix of the topic's name. */
  prefix: string;
  partitions: readonly number[];
  perPartition: number;
  /** The proxied host's request timeout. */
  requestTimeoutMs: number;
}

/** Creates `partitions` partitions of `perPartition` records (small batches: many responses to aim faults at). */
export async function openFaultScene(target: Target, options: FaultSceneOptions): Promise<FaultScene> {
  const admin = newClient(target);
  const topic = await newTopic(admin, options.prefix, options.partitions.length);
  await produce(admin, topic, options.partitions, options.perPartition, { batchSize: 50 });
  const proxy = await FaultProxy.start(target.bootstrap);
  const host = proxiedHost(target.bootstrap, proxy, { requestTimeoutMs: options.requestTimeoutMs });
  return { admin, topic, proxy, host };
}

/**
 * A fault suite's stage, opened before its tests and closed after them (beforeAll and afterAll of the calling
 * describe block). The fields are filled in by beforeAll: read them in tests and hooks, not while collecting.
 */
export function useFaultScene(target: Target, options: FaultSceneOptions): FaultScene {
  const scene = {} as FaultScene;
  beforeAll(async () => {
    Object.assign(scene, await openFaultScene(target, options));
  });
  afterAll(() => closeFaultScene(scene));
  return scene;
}

/** Heals the proxy first, so closing never waits on a connection a test left half-open. */
export async function closeFaultScene(scene: Partial<FaultScene>): Promise<void> {
  scene.proxy?.heal();
  await scene.host?.close();
  await scene.proxy?.stop();
  await scene.admin?.close();
}

/** A call that did not settle in time: the test fails with this instead of vitest's own timeout. */
export class HangError extends Error {
  override name = 'HangError';
}

/** `work`, or a HangError naming `what` once `ms` have passed without it settling. */
export async function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HangError(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `condition` until it holds; HangError after `ms`. */
export async function until(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new HangError(`${what}: not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** How a call settled: its value, or its error (which must be typed). */
export async function settle<T>(work: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await work };
  } catch (error) {
    return { error };
  }
}

/** Whether an error is one of tidemark's typed errors (not a bare Error, RangeError or TypeError). */
export function isTyped(error: unknown): error is TidemarkError {
  return error instanceof TidemarkError;
}

/**
 * Every record delivered, checked against what the test wrote (`produce()` in consumer/setup.ts: record `i` of
 * partition `p` sits at offset `i` with value recordValue(p, i)). Duplicates are counted, never hidden.
 */
export class RecordTally {
  private readonly seen = new Map<number, Map<bigint, number>>();
  /** Records delivered, duplicates included. */
  delivered = 0;
  duplicated = 0;
  /** Records whose value is not what was written at their offset. */
  corrupt = 0;
  /** Deliveries whose offset is not the one after the last delivered offset of the partition (a gap or a step back). */
  outOfOrder = 0;
  private readonly last = new Map<number, bigint>();

  constructor(
    private readonly partitions: readonly number[],
    private readonly perPartition: number,
  ) {
    for (const p of partitions) this.seen.set(p, new Map());
  }

  add(record: ConsumerRecord): void {
    this.delivered++;
    const offsets = this.seen.get(record.partition);
    if (offsets === undefined) throw new Error(`record from unexpected partition ${record.partition}`);
    const n = (offsets.get(record.offset) ?? 0) + 1;
    offsets.set(record.offset, n);
    if (n > 1) this.duplicated++;
    const expected = recordValue(record.partition, Number(record.offset));
    if (record.value === null || !Buffer.from(record.value).equals(expected)) this.corrupt++;
    const prev = this.last.get(record.partition);
    if (prev !== undefined && record.offset !== prev + 1n) this.outOfOrder++;
    this.last.set(record.partition, record.offset);
  }

  /** Distinct records delivered. */
  get distinct(): number {
    let n = 0;
    for (const m of this.seen.values()) n += m.size;
    return n;
  }

  get expected(): number {
    return this.partitions.length * this.perPartition;
  }

  /** Records written and never delivered. */
  get lost(): number {
    let n = 0;
    for (const m of this.seen.values()) {
      for (let i = 0; i < this.perPartition; i++) if (!m.has(BigInt(i))) n++;
    }
    return n;
  }

  get complete(): boolean {
    return this.distinct >= this.expected;
  }
}

export interface FaultNumbers {
  suite: string;
  fault: string;
  target: string;
  /** How many times the fault was applied. */
  runs: number;
  recordsChecked: number;
  lost: number;
  duplicated: number;
  /** The documented bound the duplicates are held to. */
  duplicateBound: number;
  [extra: string]: string | number | boolean;
}

/** One JSON line per suite and target on stdout, prefixed so it can be grepped out of vitest's output. */
export function reportNumbers(numbers: FaultNumbers): void {
  process.stdout.write(`FAULT-NUMBERS ${JSON.stringify(numbers)}\n`);
}

/** What a consumer loop over `batches()` needs. */
interface BatchSource {
  batches(options: {
    signal?: AbortSignal;
  }): AsyncIterableIterator<{ records: readonly ConsumerRecord[]; ack(): void }>;
}

/**
 * Reads into `tally` until every written record has arrived (then `extraMs` more, so late duplicates are
 * counted too). HangError if that takes longer than `ms`. `onBatch` runs after each batch is tallied.
 */
export async function consumeAll(
  consumer: BatchSource,
  tally: RecordTally,
  ms: number,
  options: { extraMs?: number; onBatch?: () => void | Promise<void> } = {},
): Promise<void> {
  const read = async (signal: AbortSignal, stopWhenComplete: boolean) => {
    try {
      for await (const batch of consumer.batches({ signal })) {
        for (const r of batch.records) tally.add(r);
        await options.onBatch?.();
        if (stopWhenComplete && tally.complete) {
          // Leaving the loop early would hand this batch out again on the next read.
          batch.ack();
          return;
        }
      }
    } catch (err) {
      if (!signal.aborted) throw err;
    }
  };
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), ms);
  try {
    await deadline(read(ac.signal, true), ms + 5_000, 'consuming every record');
  } finally {
    clearTimeout(timer);
  }
  if (!tally.complete) {
    throw new HangError(`only ${tally.distinct} of ${tally.expected} records arrived within ${ms} ms`);
  }
  const extraMs = options.extraMs ?? 1_000;
  if (extraMs > 0) await deadline(read(AbortSignal.timeout(extraMs), false), extraMs + 5_000, 'reading past the end');
}
