import { describe, expect, it } from 'vitest';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { messageCodec } from '../../../protocol/codec.js';
import { API_DEFINITIONS } from '../../../protocol/index.js';
import { parseRange } from '../../../protocol/versions.js';
import { checkDecode, held, newTally } from './outcome.js';
import { fuzzRng } from './random.js';
import { messageValue } from './values.js';

/**
 * Length bombs: every int32 and every varint position of a valid response
 * overwritten with a count or length near 2^31 (what a hostile broker, or a
 * corrupted frame, would send). Each must be rejected before anything is
 * allocated for it: the memory the process holds (JS heap plus Buffers)
 * may not grow by more than a small bound over the whole run, where a
 * single unchecked count would reserve gigabytes or die trying.
 */

/** Growth allowed over the whole run: garbage between collections, not one bomb's worth. */
const GROWTH_BOUND = 96 * 1024 * 1024;
/** What one decode of a few hundred bytes may allocate: its strings, arrays and objects, generously. */
const PER_DECODE_BOUND = 4 * 1024 * 1024;

const INT32_BOMBS = [0x7fffffff, 0x00ffffff].map((v) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
});
/** Unsigned varints 2^32-1 and 2^28 (compact lengths and counts, tagged-field counts and sizes). */
const VARINT_BOMBS = [Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), Buffer.from([0x80, 0x80, 0x80, 0x80, 0x01])];

describe('hostile lengths and counts are refused before allocating', () => {
  it('every response decoder, every version, a bomb at every byte position', () => {
    const rand = fuzzRng(0xb0b);
    const tally = newTally();
    const before = held();
    let peak = before;
    let bombs = 0;
    for (const api of API_DEFINITIONS) {
      const def = api.response;
      const { min, max } = parseRange(def.validVersions);
      for (let version = min; version <= max; version++) {
        const codec = messageCodec(def, version);
        const w = new Writer();
        codec.encode(w, messageValue(def, version, rand) as never);
        const valid = w.toBuffer();
        for (let at = 0; at < valid.length; at++) {
          for (const bomb of [...INT32_BOMBS, ...VARINT_BOMBS]) {
            const input = Buffer.from(valid);
            bomb.copy(input, at, 0, Math.min(bomb.length, input.length - at));
            bombs++;
            checkDecode(
              () => codec.decode(new Reader(input)),
              input,
              tally,
              () => `${def.name} v${version} bomb at ${at}:`,
              { measure: true },
            );
          }
          peak = Math.max(peak, held());
        }
      }
    }
    const growth = peak - before;
    console.log(
      `length bombs: ${bombs} inputs, ${tally.rejected} rejected, peak growth ${(growth / 1048576).toFixed(1)} MiB, most one decode allocated ${(tally.maxAllocated / 1024).toFixed(0)} KiB, slowest ${tally.slowestMs.toFixed(1)} ms`,
    );
    // Many positions hold plain numbers, where a bomb is just a value; the rest must be refused.
    expect(tally.rejected).toBeGreaterThan(bombs / 5);
    expect(growth).toBeLessThan(GROWTH_BOUND);
    expect(tally.maxAllocated).toBeLessThan(PER_DECODE_BOUND);
  }, 60_000);
});
