import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { messageCodec } from '../../../protocol/codec.js';
import { API_DEFINITIONS, RequestHeader, ResponseHeader } from '../../../protocol/index.js';
import type { MessageDef } from '../../../protocol/schema.js';
import { parseRange } from '../../../protocol/versions.js';

/** xorshift32: deterministic, so a failure names a reproducible case. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function versionsOf(def: MessageDef): number[] {
  const r = parseRange(def.validVersions);
  const out: number[] = [];
  for (let v = r.min; v <= r.max; v++) out.push(v);
  return out;
}

const messages: MessageDef[] = [
  RequestHeader,
  ResponseHeader,
  ...API_DEFINITIONS.flatMap((api) => [api.request, api.response]),
];

describe('compiled decoders on hostile bytes', () => {
  for (const def of messages) {
    it(`${def.name}: random, truncated and mutated input only ever raises ProtocolError`, () => {
      const rand = prng(def.name.length * 7919);
      for (const version of versionsOf(def)) {
        const codec = messageCodec(def, version);
        // A valid all-defaults message is the base for truncation and mutation.
        const w = new Writer();
        codec.encode(w, {});
        const valid = w.toBuffer();
        expect(codec.decode(new Reader(valid))).toBeTypeOf('object');
        const inputs: Buffer[] = [];
        for (let cut = 0; cut < valid.length; cut++) inputs.push(valid.subarray(0, cut));
        for (let i = 0; i < 200; i++) {
          const b = Buffer.from(valid.length > 0 && rand() < 0.5 ? valid : Buffer.alloc(Math.floor(rand() * 64)));
          for (let j = 0; j < b.length; j++) if (rand() < 0.2) b[j] = Math.floor(rand() * 256);
          inputs.push(b);
        }
        for (const input of inputs) {
          try {
            codec.decode(new Reader(input));
          } catch (err) {
            if (!(err instanceof ProtocolError)) throw err;
            expect(err.api).toBe(def.name);
            expect(err.version).toBe(version);
          }
        }
      }
    });
  }
});
