import { describe, expect, it } from 'vitest';
import type { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { type MessageCodec, messageCodec } from '../../../protocol/codec.js';
import {
  API_DEFINITIONS,
  ConsumerProtocolAssignment,
  ConsumerProtocolSubscription,
  RequestHeader,
  ResponseHeader,
} from '../../../protocol/index.js';
import type { MessageDef } from '../../../protocol/schema.js';
import { parseRange } from '../../../protocol/versions.js';
import { seedFor } from '../../conformance/random.js';
import { checkDecode, newTally, type Tally } from './outcome.js';
import { FUZZ_SCALE, fuzzRng, mutations, truncations } from './random.js';
import { messageValue } from './values.js';

/**
 * Every compiled decoder, request and response, of every API at every
 * version (plus the headers), on: random valid values generated from the
 * definition (which must round-trip to the same bytes), every truncation of
 * those encodings (each must be rejected), mutations of them and random
 * bytes (each must decode or be rejected with a ProtocolError naming the
 * message and version). It replaces test/unit/protocol/hostile-bytes.test.ts,
 * which tried the all-defaults message only.
 */

const VALID_VALUES = 4 * FUZZ_SCALE;
const MUTATIONS_PER_VALUE = 25 * FUZZ_SCALE;
const RANDOM_INPUTS = 40 * FUZZ_SCALE;

function versionsOf(def: MessageDef): number[] {
  const r = parseRange(def.validVersions);
  return Array.from({ length: r.max - r.min + 1 }, (_, i) => r.min + i);
}

function encode(codec: MessageCodec<unknown, unknown>, value: unknown): Buffer {
  const w = new Writer();
  codec.encode(w, value);
  return w.toBuffer();
}

function fuzzMessage(def: MessageDef, version: number, seed: number, tally: Tally): void {
  const rand = fuzzRng(seed);
  const codec = messageCodec(def, version);
  const decode = (input: Buffer) => () => codec.decode(new Reader(input));
  const named = (err: ProtocolError) => {
    expect(err.api).toBe(def.name);
    expect(err.version).toBe(version);
  };
  const values = [{}, ...Array.from({ length: VALID_VALUES }, () => messageValue(def, version, rand))];
  for (const [i, value] of values.entries()) {
    const valid = encode(codec, value);
    const what = (kind: string) => () => `${def.name} v${version} (seed ${seed}, value ${i}) ${kind}:`;
    // The generated value is valid: it decodes, to a value that encodes to the same bytes.
    const r = new Reader(valid);
    const decoded = codec.decode(r);
    expect(r.remaining, `${what('round trip')()} bytes left`).toBe(0);
    expect(encode(codec, decoded).equals(valid), `${what('round trip')()} re-encoding differs`).toBe(true);

    for (const input of truncations(valid)) {
      const result = checkDecode(decode(input), input, tally, what(`truncated to ${input.length}`), {
        accept: named,
      });
      if (result !== undefined) expect.fail(`${what(`truncated to ${input.length}`)()} decoded a strict prefix`);
    }
    for (const input of mutations(valid, rand, MUTATIONS_PER_VALUE)) {
      checkDecode(decode(input), input, tally, what('mutated'), { accept: named });
    }
  }
  for (let i = 0; i < RANDOM_INPUTS; i++) {
    const input = rand.bytes(rand.between(0, rand.chance(0.2) ? 512 : 48));
    checkDecode(decode(input), input, tally, () => `${def.name} v${version} random:`, { accept: named });
  }
}

const messages: MessageDef[] = [
  RequestHeader,
  ResponseHeader,
  // Embedded in JoinGroup, SyncGroup and DescribeGroups, and written by other clients.
  ConsumerProtocolSubscription,
  ConsumerProtocolAssignment,
  ...API_DEFINITIONS.flatMap((api) => [api.request, api.response]),
];

describe('fuzzing every compiled decoder', () => {
  for (const def of messages) {
    it(
      `${def.name}: generated, truncated, mutated and random bytes decode or raise ProtocolError`,
      async () => {
        const tally = newTally();
        for (const version of versionsOf(def)) {
          fuzzMessage(def, version, seedFor(version, def.name), tally);
          // Lets vitest's worker answer its runner between versions: a long TIDEMARK_FUZZ_RUNS run would
          // otherwise block it past its RPC timeout.
          await new Promise((resolve) => setImmediate(resolve));
        }
        // Mutations must reach both outcomes, or the test is not exercising the decoder.
        expect(tally.decoded).toBeGreaterThan(0);
        expect(tally.rejected).toBeGreaterThan(0);
      },
      20_000 * FUZZ_SCALE,
    );
  }
});
