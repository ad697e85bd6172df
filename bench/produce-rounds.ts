/**
 * The alternating side-by-side method of the fetch bench, for the produce and latency benchmarks: in each
 * round every client runs once, in its own process, and the order rotates so no client always follows the
 * same one (or always meets a warm or a cold broker). A client that fails is not run again and its row says
 * why; the others go on.
 */
import { type Availability, type BenchContext, CLIENTS } from './clients/peers.js';
import { currentNode, node24 } from './clients/process.js';

export interface RoundsOutcome<R> {
  results: Map<string, R[]>;
  /** First line of each failed client's error. */
  failures: Map<string, string>;
}

export async function alternateRounds<C extends { id: string; name: string }, R>(
  clients: readonly C[],
  rounds: number,
  runOne: (client: C, round: number) => Promise<R>,
  log: (line: string) => void,
): Promise<RoundsOutcome<R>> {
  const results = new Map<string, R[]>(clients.map((c) => [c.id, []]));
  const failures = new Map<string, string>();
  for (let round = 1; round <= rounds; round++) {
    const order = clients.map((_, i) => clients[(i + round - 1) % clients.length]);
    for (const c of order) {
      if (failures.has(c.id)) continue;
      log(`round ${round}/${rounds}: ${c.name}…`);
      try {
        results.get(c.id)?.push(await runOne(c, round));
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        log(`  FAILED: ${message.slice(0, 2000)}`);
        failures.set(c.id, (message.split('\n').find((l) => l.trim() !== '') ?? message).slice(0, 300));
      }
    }
  }
  return { results, failures };
}

/** Resolves `--clients` against a client list: all of them by default; an unknown id is an error naming the known ones. */
export function selectClients<C extends { id: string }>(all: readonly C[], ids: string | undefined): C[] {
  if (ids === undefined) return [...all];
  return ids.split(',').map((id) => {
    const c = all.find((x) => x.id === id.trim());
    if (c === undefined)
      throw new Error(`unknown client ${id}; this benchmark has: ${all.map((x) => x.id).join(', ')}`);
    return c;
  });
}

export interface SessionOptions {
  bootstrap: string;
  toolsVersion: string;
  build: boolean;
  rebuild: boolean;
  log: (line: string) => void;
}

/**
 * The context the clients run in, and whether each can run here: every client is probed as the fetch bench
 * probes its client of the same id (bench/clients/peers.ts: Node 24, the librdkafka build, kcat, Java).
 */
export async function prepareSession(
  o: SessionOptions,
  clients: readonly { id: string; name: string; probeAs?: string }[],
): Promise<{ ctx: BenchContext; availability: Map<string, Availability> }> {
  const ctx: BenchContext = { ...o, node: currentNode(), node24: node24() };
  const availability = new Map<string, Availability>();
  for (const c of clients) {
    const probe = CLIENTS.find((f) => f.id === (c.probeAs ?? c.id));
    const a =
      probe === undefined
        ? { available: false as const, reason: `no probe for ${c.id}` }
        : await probe.prepare(ctx).catch((e: Error): Availability => ({ available: false, reason: e.message }));
    availability.set(c.id, a);
    o.log(a.available ? `client ${c.name}: ${a.runtime}` : `client ${c.name}: not available: ${a.reason}`);
  }
  return { ctx, availability };
}
