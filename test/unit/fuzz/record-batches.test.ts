import { describe, expect, it } from 'vitest';
import { CorruptRecordError, type DecodedRecords, decodeRecords } from '../../../codecs/records/index.js';
import { checkDecode, newTally } from './outcome.js';
import { FUZZ_SCALE, fuzzRng, mutations, truncations } from './random.js';
import { type Section, sections, summary } from './record-sections.js';

/**
 * decodeRecords on valid records sections (every codec, headers, control
 * batches, legacy messages) cut and mutated: a cut section yields exactly
 * the complete entries before the cut; with CRCs checked (the default) any
 * change to the bytes an entry's CRC covers is refused as a
 * CorruptRecordError carrying the intact entries before it; with CRCs off,
 * any mutation at all still decodes or raises a ProtocolError, never
 * anything else, never a hang, never an allocation past the limit.
 */

const MUTATIONS = 400 * FUZZ_SCALE;
/** Vitest's 5 s default fits the default run; a longer TIDEMARK_FUZZ_RUNS run needs proportionally longer. */
const TIMEOUT_MS = 15_000 * FUZZ_SCALE;
/** Low, so a mutated size that slips through costs little; the real default is 64 MiB. */
const MAX_DECOMPRESSED = 1 << 20;

const rand = fuzzRng(0x5ec7);
const cases = sections(rand);

/** The decoded entries as comparable lines, one string per entry. */
function lines(batches: DecodedRecords['batches']): string[] {
  return batches.map((b) => `${b.baseOffset}/${b.magic}: ${summary(b).join(' | ')}`);
}

function corruptError(section: Section, input: Buffer, what: string): CorruptRecordError {
  try {
    decodeRecords(input);
  } catch (err) {
    if (err instanceof CorruptRecordError) return err;
    throw new Error(`${section.name}: ${what}: ${(err as Error).name} instead of CorruptRecordError`, { cause: err });
  }
  throw new Error(`${section.name}: ${what}: decoded without an error`);
}

describe('fuzzing record batch decoding', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: the valid section decodes to what was encoded', (_, c) => {
    const { batches, partialBytes } = decodeRecords(c.bytes);
    expect(partialBytes).toBe(0);
    expect(batches.map(summary)).toEqual(c.expected);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: a cut at every byte yields the entries before it', (_, c) => {
    const full = lines(decodeRecords(c.bytes).batches);
    for (const input of truncations(c.bytes)) {
      const complete = c.entries.filter((e) => e.end <= input.length);
      const { batches, partialBytes } = decodeRecords(input);
      expect(lines(batches), `cut at ${input.length}`).toEqual(full.slice(0, complete.length));
      expect(partialBytes).toBe(input.length - (complete.at(-1)?.end ?? 0));
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: CRCs catch every change to the bytes they cover',
    (_, c) => {
      const full = lines(decodeRecords(c.bytes).batches);
      let checked = 0;
      for (const [index, entry] of c.entries.entries()) {
        const before = full.slice(0, index);
        // Every byte, changed in every bit position at once and in one random way.
        for (let at = entry.coveredFrom; at < entry.end; at++) {
          for (const flip of [0xff, rand.between(1, 255)]) {
            const input = Buffer.from(c.bytes);
            input[at] ^= flip;
            const err = corruptError(c, input, `byte ${at} ^ ${flip}`);
            expect(lines(err.decodedBefore), `byte ${at}`).toEqual(before);
            checked++;
          }
        }
        // Bursts of up to 32 bits, which CRC-32 and CRC-32C detect without exception.
        for (let i = 0; i < 50 * FUZZ_SCALE; i++) {
          const input = Buffer.from(c.bytes);
          const at = rand.between(entry.coveredFrom, entry.end - 1);
          const bytes = Math.min(rand.between(2, 4), entry.end - at);
          input[at] ^= rand.between(1, 255);
          for (let j = 1; j < bytes; j++) input[at + j] ^= rand.between(0, 255);
          const err = corruptError(c, input, `burst at ${at}`);
          expect(lines(err.decodedBefore)).toEqual(before);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(c.bytes.length);
    },
    TIMEOUT_MS,
  );

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: changes outside the CRCs fail typed or leave the entries before them intact',
    (_, c) => {
      const full = lines(decodeRecords(c.bytes).batches);
      const tally = newTally();
      for (const [index, entry] of c.entries.entries()) {
        for (let at = entry.start; at < entry.coveredFrom; at++) {
          for (const flip of [0x01, 0x80, 0xff]) {
            const input = Buffer.from(c.bytes);
            input[at] ^= flip;
            const result = checkDecode(
              () => decodeRecords(input),
              input,
              tally,
              () => `${c.name} byte ${at}:`,
              {
                foreignCause: true,
                valuesPerByte: Number.POSITIVE_INFINITY,
              },
            ) as DecodedRecords | undefined;
            if (result !== undefined) expect(lines(result.batches).slice(0, index)).toEqual(full.slice(0, index));
          }
        }
      }
      expect(tally.decoded + tally.rejected).toBeGreaterThan(0);
    },
  );

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: with CRCs off, any mutation decodes or raises a ProtocolError within the limits',
    (_, c) => {
      const tally = newTally();
      const options = { checkCrc: false, maxDecompressedBytes: MAX_DECOMPRESSED };
      for (const input of mutations(c.bytes, rand, MUTATIONS)) {
        checkDecode(
          () => decodeRecords(input, options),
          input,
          tally,
          () => `${c.name} (CRC off) mutated:`,
          {
            foreignCause: true,
            valuesPerByte: Number.POSITIVE_INFINITY,
            measure: true,
          },
        );
      }
      expect(tally.rejected).toBeGreaterThan(0);
      // One decode holds at most one limit's worth of output, plus codec state and the decoded objects.
      expect(tally.maxAllocated).toBeLessThan(2 * MAX_DECOMPRESSED + (1 << 20));
    },
    TIMEOUT_MS,
  );

  it(
    'random bytes, with and without CRC checks, decode or raise a ProtocolError',
    () => {
      const tally = newTally();
      for (let i = 0; i < 2000 * FUZZ_SCALE; i++) {
        const input = rand.bytes(rand.between(0, 200));
        // A plausible size prefix now and then, so the input reaches the batch decoders.
        if (input.length >= 12 && rand.chance(0.5)) input.writeInt32BE(input.length - 12, 8);
        if (input.length >= 17 && rand.chance(0.5)) input[16] = rand.between(0, 2);
        const checkCrc = rand.chance(0.5);
        checkDecode(
          () => decodeRecords(input, { checkCrc }),
          input,
          tally,
          () => `random (CRC ${checkCrc}):`,
          {
            foreignCause: true,
            valuesPerByte: Number.POSITIVE_INFINITY,
          },
        );
      }
      expect(tally.rejected).toBeGreaterThan(0);
      expect(tally.decoded).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});
