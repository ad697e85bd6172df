import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KAFKA_VERSIONS } from './kafka.js';
import { groupMismatches } from './mismatch.js';
import { allTargets, ConformanceSession } from './run.js';

/**
 * Every protocol definition against Apache Kafka's own schemas and
 * serializers (see cli.ts for the same check with a table). One test per
 * definition, so a failure names the API and lists what differs. The seed is
 * fixed so CI is repeatable; set TIDEMARK_CONFORMANCE_SEED to explore others.
 */

const SEED = Number(process.env.TIDEMARK_CONFORMANCE_SEED ?? 1);
const MESSAGES = Number(process.env.TIDEMARK_CONFORMANCE_MESSAGES ?? 20);

let session: ConformanceSession | undefined;

beforeAll(async () => {
  session = await ConformanceSession.open({ seed: SEED, messages: MESSAGES });
});

afterAll(() => session?.close());

describe(`protocol definitions against Kafka ${KAFKA_VERSIONS.join(' and ')} (seed ${SEED})`, () => {
  it.each(allTargets().map((t) => [t.name, t] as const))('%s', async (_name, target) => {
    const result = await session!.check(target);
    expect(result.versions.length, 'no version was checked').toBeGreaterThan(0);
    expect(groupMismatches(result.mismatches)).toEqual([]);
  });
});
