/**
 * A seeded corruption soak (issue 22), both brokers at once: 30% of all responses of every kind — handshakes,
 * metadata, Produce, Fetch, ListOffsets, InitProducerId — are corrupted (bit flips, garbage bodies, bodies cut
 * short, trailing bytes, impossible sizes, duplicated frames) until 2,500 were and every kind and API had its
 * share (at least 15 s, at most 40 s per broker), while one consumer, one idempotent producer, six offsets
 * clients and bare Metadata requests retried without backoff work through the proxy. Then the proxy is clean,
 * and the same objects must recover.
 * Asserted: at least 2,000 corrupted responses per broker, no crash, no event-loop stall, no untyped error, no
 * call waiting past its configured timeout, no position ever past the high watermark, every record of the
 * topic delivered once and intact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DEFINITIONS, Metadata } from '../../../protocol/index.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { Producer } from '../../../src/producer/producer.js';
import { seededRandom } from '../../conformance/random.js';
import { newTopic, targets } from '../consumer/setup.js';
import { CORRUPTION_KINDS, type CorruptionKind, corrupt } from './corruptions.js';
import {
  deadline,
  isTyped,
  type ProxiedHost,
  proxiedHost,
  RecordTally,
  reportNumbers,
  settle,
  until,
  useFaultScene,
} from './fault-kit.js';

const PARTITIONS = [0, 1];
const PER_PARTITION = 1_500;
const REQUEST_TIMEOUT_MS = 2_000;
/**
 * Also the longest throttle the producer honours (src/producer/sender.ts, plausibleThrottle): a flipped bit in a
 * Produce answer's throttle_time_ms can make 1-11 s, which a broker's quota may really ask for, so the producer
 * mutes that broker for it. The send after healing waits for any such throttle to run out first.
 */
const DELIVERY_TIMEOUT_MS = 8_000;
/** Corrupting goes on at least this long (every kind of response gets its share)... */
const SOAK_MIN_MS = 15_000;
/** ...and until TARGET_CORRUPTED responses were corrupted, or this long at most. */
const SOAK_MAX_MS = 40_000;
/** Share of responses corrupted while the soak runs. */
const CORRUPT_SHARE = 0.3;
/** Slack on top of a configured timeout before a wait counts as overdue (a loaded two-core machine). */
const SLACK_MS = 3_000;
const SEED = 22;
/**
 * Client objects besides the consumer's and producer's, each with connections of its own. A corrupted response
 * closes the connection it came on and fails every request in flight there; more connections corrupted in
 * parallel, not more callers on one, are what raise the count.
 */
const SIDE_HOSTS = 5;
/** Where a soak of one broker stops corrupting (the issue asks for a few thousand corrupted responses)... */
const TARGET_CORRUPTED = 2_500;
/** ...and the fewest it must have seen when SOAK_MAX_MS cut it short. */
const MIN_CORRUPTED = 2_000;
/**
 * The APIs every soak must have corrupted at least once. Corrupting also goes on (up to SOAK_MAX_MS) until each
 * has been, not only until TARGET_CORRUPTED: the bare Metadata loops reach the count in about 17 s, while the
 * consumer gets few Fetch answers through in that time (every corrupted answer on its connection closes it, and
 * the next connection's handshake is corrupted 30 % of the time too). CI logs show 13-34 corrupted Fetch answers
 * per soak, and once 0, which failed the coverage check below without anything being wrong in the client.
 */
const COVERED_APIS = ['ApiVersions', 'Metadata', 'Produce', 'Fetch', 'ListOffsets'];

// Both brokers at once: the soak waits on the network, not the CPU, so running them side by side keeps the file
// near a minute while each soaks long enough for its count.
describe.concurrent.each(targets())('seeded corruption soak, $label', (target) => {
  const scene = useFaultScene(target, {
    prefix: 'fault-soak',
    partitions: PARTITIONS,
    perPartition: PER_PARTITION,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  let sink: string;
  let sideHosts: ProxiedHost[] = [];
  beforeAll(async () => {
    sink = await newTopic(scene.admin, 'fault-soak-sink', 1);
    sideHosts = times(SIDE_HOSTS, () =>
      proxiedHost(target.bootstrap, scene.proxy, { requestTimeoutMs: REQUEST_TIMEOUT_MS }),
    );
  });
  // Runs before the scene's own afterAll (vitest runs after-hooks in reverse order).
  afterAll(async () => {
    for (const side of sideHosts) await side.close();
  });

  it('no crash, stall, untyped error, overdue wait or position past the high watermark; then recovery', {
    timeout: 150_000,
  }, async () => {
    const { topic, proxy, host } = scene;
    const random = seededRandom(SEED + target.major);
    const byKind = new Map<CorruptionKind, number>();
    const byApi = new Map<string, number>();
    let corrupting = true;
    for (const api of API_DEFINITIONS) {
      proxy.onResponse(api.key, (response) => {
        if (!corrupting || random() >= CORRUPT_SHARE) return 'forward';
        const kind = CORRUPTION_KINDS[Math.floor(random() * CORRUPTION_KINDS.length)];
        byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
        byApi.set(api.name, (byApi.get(api.name) ?? 0) + 1);
        return corrupt(kind, response, random);
      });
    }

    const untyped: unknown[] = [];
    const overdue: string[] = [];
    let errors = 0;
    /** Runs a call, checking that it settles within `limitMs` and fails only with a typed error. */
    const observe = async <T>(what: string, limitMs: number, work: () => Promise<T>) => {
      const started = Date.now();
      const outcome = await settle(work());
      const took = Date.now() - started;
      if (took > limitMs + SLACK_MS) overdue.push(`${what} took ${took} ms (limit ${limitMs})`);
      if (outcome.error !== undefined) {
        errors++;
        if (!isTyped(outcome.error)) untyped.push(outcome.error);
      }
      return outcome;
    };

    // The event loop must never stall: a timer that fires late by seconds means a busy loop or a huge copy.
    let maxLagMs = 0;
    let tick = Date.now();
    const lagTimer = setInterval(() => {
      maxLagMs = Math.max(maxLagMs, Date.now() - tick - 100);
      tick = Date.now();
    }, 100);

    const producer = new Producer(host.cluster, {
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      deliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
      lingerMs: 0,
    });
    const consumer = new Consumer(host, {
      autoOffsetReset: 'earliest',
      maxPartitionFetchBytes: 4_096,
      fetchMaxWaitMs: 50,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    consumer.on('warning', (w) => {
      if (w.error !== undefined && !isTyped(w.error)) untyped.push(w.error);
    });
    // A reset moves a position without a record being read: with a garbled log range it could skip records.
    const resets: string[] = [];
    consumer.on('offset-reset', (e) => resets.push(JSON.stringify(e, (_, v) => (typeof v === 'bigint' ? `${v}` : v))));
    const tally = new RecordTally(PARTITIONS, PER_PARTITION);
    const next = new Map<number, bigint>(PARTITIONS.map((p) => [p, 0n]));
    let pastHighWatermark = 0;
    let consumerErrors = 0;
    let sent = 0;
    const stop = new AbortController();

    const readLoop = async () => {
      consumer.assign(PARTITIONS.map((partition) => ({ topic, partition })));
      while (!stop.signal.aborted) {
        try {
          for await (const batch of consumer.batches({ signal: stop.signal })) {
            for (const r of batch.records) {
              // The topic is static: its high watermark is PER_PARTITION.
              if (r.offset >= BigInt(PER_PARTITION)) pastHighWatermark++;
              tally.add(r);
              next.set(r.partition, r.offset + 1n);
            }
            for (const partition of PARTITIONS) {
              const at = await settle(consumer.position({ topic, partition }));
              if (at.value !== undefined && at.value > BigInt(PER_PARTITION)) pastHighWatermark++;
            }
          }
        } catch (err) {
          if (stop.signal.aborted) break;
          // A partition stopped by a batch that failed its CRC: the application goes on from what it has.
          consumerErrors++;
          if (!isTyped(err)) untyped.push(err);
          for (const [partition, offset] of next) consumer.seek({ topic, partition }, offset);
        }
      }
    };
    const produceLoop = async () => {
      while (!stop.signal.aborted) {
        const outcome = await observe('send', DELIVERY_TIMEOUT_MS, () =>
          producer.send({ topic: sink, partition: 0, value: Buffer.from(`soak-${sent}`) }),
        );
        if (outcome.error === undefined) sent++;
      }
    };
    const offsetsLoop = async (at: ProxiedHost) => {
      while (!stop.signal.aborted) {
        await observe('latest', REQUEST_TIMEOUT_MS, () => at.offsets.latest(topic, { timeoutMs: REQUEST_TIMEOUT_MS }));
        await observe('metadata', REQUEST_TIMEOUT_MS, () => at.cluster.metadata({ topics: [topic] }));
      }
    };

    // Bare requests retried at once, with no backoff: a request refused without I/O (a connection whose
    // ApiVersions answer was garbled) must still let the event loop turn, or this loop starves every timer.
    const bareMetadataLoop = async (at: ProxiedHost) => {
      while (!stop.signal.aborted) {
        const connection = await observe('anyConnection', 2 * REQUEST_TIMEOUT_MS, () => at.cluster.anyConnection());
        if (connection.value === undefined) continue;
        const c = connection.value;
        await observe('bare metadata', REQUEST_TIMEOUT_MS, () => c.request(Metadata, { topics: [{ name: topic }] }));
      }
    };

    // Many callers on each of several clients: more connections live at once, so more corruptions per second.
    const loops = [
      readLoop(),
      ...times(6, produceLoop),
      ...times(12, () => offsetsLoop(host)),
      ...times(4, () => bareMetadataLoop(host)),
      ...sideHosts.flatMap((side) => [...times(6, () => offsetsLoop(side)), ...times(2, () => bareMetadataLoop(side))]),
    ];
    const countCorrupted = () => [...byKind.values()].reduce((a, b) => a + b, 0);
    const covered = () =>
      CORRUPTION_KINDS.every((kind) => (byKind.get(kind) ?? 0) > 0) &&
      COVERED_APIS.every((api) => (byApi.get(api) ?? 0) > 0);
    const soakStarted = Date.now();
    let soakMs = 0;
    let corrupted = 0;
    try {
      for (;;) {
        soakMs = Date.now() - soakStarted;
        if (soakMs >= SOAK_MAX_MS) break;
        if (soakMs >= SOAK_MIN_MS && countCorrupted() >= TARGET_CORRUPTED && covered()) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      corrupting = false;
      corrupted = countCorrupted();
      proxy.heal();
      const healedAt = Date.now();
      // Recovery of the same objects: every record arrives, and each client answers.
      await until(() => tally.complete, 45_000, 'every record delivered after the corruption stopped').catch(
        (err: unknown) => {
          // Seen once in 22 soaks (3.9): what the consumer was doing, for the next one.
          const reader = `read ${tally.distinct} of ${tally.expected}, next ${[...next.values()]}, ${consumerErrors} errors, resets ${resets}`;
          throw new Error(`${(err as Error).message}; ${reader}; consumer: ${consumerState(consumer)}`, {
            cause: err,
          });
        },
      );
      // A throttle taken from a corrupted answer may mute the producer for up to its delivery timeout: the wait
      // below covers it. It did not explain the send after healing going unacknowledged (b7a9f10's dry run, 3 of
      // 36 soaks in one session); producerState did: a link to node 268435457, a leader id with one bit flipped
      // in a Metadata answer for the sink, which the metadata cache served for its 5-minute max age (fixed in
      // src/cluster/cluster.ts noteError, and src/producer/cluster-view.ts leaderUnknown for a negative one).
      // Once a flipped InitProducerId error code (BROKER_NOT_AVAILABLE) ended the producer instead
      // (src/producer/init-producer-id.ts). producerState stays in the failure message for whatever comes next.
      await new Promise((r) => setTimeout(r, Math.max(0, healedAt + DELIVERY_TIMEOUT_MS - Date.now())));
      const afterSend = await observe('send after', DELIVERY_TIMEOUT_MS, () =>
        producer.send({ topic: sink, partition: 0, value: Buffer.from('after') }),
      );
      const waitingOn = afterSend.error === undefined ? '' : `; producer: ${producerState(producer)}`;
      expect(afterSend.error, `${afterSend.error}${waitingOn}`).toBeUndefined();
      for (const at of [host, ...sideHosts]) {
        const afterLatest = await observe('latest after', 30_000, () => at.offsets.latest(topic));
        expect(afterLatest.error, `${at === host ? 'main' : 'side'} client: ${afterLatest.error}`).toBeUndefined();
        expect(afterLatest.value?.map((o) => o.offset)).toEqual(PARTITIONS.map(() => BigInt(PER_PARTITION)));
        const afterMetadata = await observe('metadata after', 30_000, () => at.cluster.metadata({ topics: [topic] }));
        expect(afterMetadata.error, String(afterMetadata.error)).toBeUndefined();
      }
    } finally {
      stop.abort();
      clearInterval(lagTimer);
      await deadline(Promise.all(loops), 30_000, 'the soak loops ending');
      await consumer.close();
      await producer.close({ timeoutMs: 5_000 });
    }
    reportNumbers({
      suite: 'corruption-soak',
      fault: `30% of all responses of every kind corrupted (seeded) until ${TARGET_CORRUPTED} were, then clean`,
      target: target.label,
      runs: corrupted,
      recordsChecked: tally.delivered,
      lost: tally.lost,
      duplicated: tally.duplicated,
      duplicateBound: 0,
      corrupt: tally.corrupt,
      sent,
      callErrors: errors,
      consumerErrors,
      resets: resets.length,
      maxLagMs,
      soakMs,
      kinds: JSON.stringify(Object.fromEntries(byKind)),
      apis: JSON.stringify(Object.fromEntries(byApi)),
    });
    expect(untyped.map(String)).toEqual([]);
    expect(overdue).toEqual([]);
    expect(pastHighWatermark).toBe(0);
    expect(maxLagMs).toBeLessThan(2_000);
    expect(tally.lost).toBe(0);
    expect(tally.duplicated).toBe(0);
    expect(tally.corrupt).toBe(0);
    expect(tally.outOfOrder).toBe(0);
    expect(corrupted).toBeGreaterThanOrEqual(MIN_CORRUPTED);
    for (const kind of CORRUPTION_KINDS) expect(byKind.get(kind) ?? 0, kind).toBeGreaterThan(0);
    for (const api of COVERED_APIS) expect(byApi.get(api) ?? 0, api).toBeGreaterThan(0);
  });
});

function times<T>(n: number, start: () => T): T[] {
  return Array.from({ length: n }, start);
}

/** The parts of a producer's private state that decide whether a send goes out (test diagnostics only). */
interface ProducerInsides {
  idempotence?: {
    producerId: bigint;
    epoch: number;
    partitions: Map<string, { inFlight: { attempts: number; outcomeUnknown: boolean }[]; needsReset: boolean }>;
  };
  sender: {
    links: {
      links: Map<number, { inFlight: number; throttledUntil: number; connecting: boolean; connection?: unknown }>;
    };
  };
}

/**
 * What the producer was waiting on when a send timed out: producer id and epoch, each partition's batches in
 * flight and whether its sequences await a reset, each broker link's requests in flight and throttle. Private
 * state, read only to explain a failure; a renamed field gives "unavailable", never a second failure.
 */
function producerState(producer: Producer): string {
  try {
    const { idempotence, sender } = producer as unknown as ProducerInsides;
    const now = Date.now();
    return JSON.stringify({
      producerId: idempotence === undefined ? null : String(idempotence.producerId),
      epoch: idempotence?.epoch,
      partitions: [...(idempotence === undefined ? [] : idempotence.partitions.entries())].map(([name, p]) => ({
        name,
        inFlight: p.inFlight.map((b) => ({ attempts: b.attempts, outcomeUnknown: b.outcomeUnknown })),
        needsReset: p.needsReset,
      })),
      links: [...sender.links.links.entries()].map(([node, l]) => ({
        node,
        inFlight: l.inFlight,
        throttledForMs: Math.max(0, l.throttledUntil - now),
        connecting: l.connecting,
        connected: l.connection !== undefined,
      })),
    });
  } catch (err) {
    return `unavailable (${err})`;
  }
}

/** The consumer's positions, log ends and fetch counts, for a failure message. */
function consumerState(consumer: Consumer): string {
  const m = consumer.metrics();
  return JSON.stringify({
    fetchRequests: m.fetchRequests,
    fetchErrors: m.fetchErrors,
    responseMemory: m.responseMemory,
    lag: m.lag.map((l) => `${l.partition}: position ${l.position} of ${l.logEndOffset}`),
  });
}
