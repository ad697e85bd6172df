import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writer } from '../../codecs/writer.js';
import { messageCodec } from '../../protocol/codec.js';
import { Fetch, Produce } from '../../protocol/index.js';
import { defineApi, field, type MessageDef, structs } from '../../protocol/schema.js';
import { parseRange } from '../../protocol/versions.js';
import { casesFor } from './bytes-check.js';
import { diffMessage } from './compare.js';
import { fromKafkaJson, toKafkaJson } from './json.js';
import { stripComments } from './kafka-schema.js';
import { groupMismatches } from './mismatch.js';
import { Oracle } from './oracle.js';
import { apiTarget, ConformanceSession } from './run.js';

/**
 * The checker's own plumbing: the JSON bridge to Kafka's converters must be
 * exact for every primitive type, including those no tidemark API uses yet
 * (float64, uint16), or a passing run would prove nothing about them.
 */

// Two Kafka APIs tidemark does not (yet) speak, written here only to exercise float64 and uint16.
const DescribeClientQuotas = defineApi({
  name: 'DescribeClientQuotas',
  key: 48,
  versions: '0-1',
  flexible: '1+',
  request: [
    field(
      'components',
      structs('ComponentData', [
        field('entityType', 'string', '0+'),
        field('matchType', 'int8', '0+'),
        field('match', 'string', '0+', { nullable: '0+' }),
      ]),
      '0+',
    ),
    field('strict', 'bool', '0+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('errorCode', 'int16', '0+'),
    field('errorMessage', 'string', '0+', { nullable: '0+' }),
    field(
      'entries',
      structs('EntryData', [
        field(
          'entity',
          structs('EntityData', [
            field('entityType', 'string', '0+'),
            field('entityName', 'string', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
        field('values', structs('ValueData', [field('key', 'string', '0+'), field('value', 'float64', '0+')]), '0+'),
      ]),
      '0+',
      { nullable: '0+' },
    ),
  ],
});

let session: ConformanceSession | undefined;

beforeAll(async () => {
  session = await ConformanceSession.open({ seed: 3, messages: 40, kafkaVersions: ['4.4.0'] });
});

afterAll(() => session?.close());

describe('the bridge to Kafka', () => {
  it('writes exact int64s, float64s that Jackson reads as floating point, and base64 bytes', () => {
    const fields = [field('f', 'float64', '0+'), field('g', 'float64', '0+'), field('h', 'float64', '0+')];
    const value = { a: -(2n ** 63n), f: -0, g: 1, h: 1e21, c: Buffer.from([0xfb, 0xff]), d: undefined };
    expect(toKafkaJson({ ...value, _unknownTaggedFields: [] }, fields)).toBe(
      '{"a":-9223372036854775808,"f":-0.0,"g":1.0,"h":1e+21,"c":"+/8="}',
    );
  });

  it('strips // comments but not // inside strings', () => {
    expect(JSON.parse(stripComments('{ // x\n "a": "http://k", // y\n "b": "\\"//" }'))).toEqual({
      a: 'http://k',
      b: '"//',
    });
  });

  it('round-trips float64 values (DescribeClientQuotas) byte for byte', async () => {
    const r = await session!.check(apiTarget(DescribeClientQuotas));
    expect(r.bytesChecks).toBe(4);
    expect(groupMismatches(r.mismatches)).toEqual([]);
  });

  it("reads Kafka's JSON back exactly (records bytes, int64s, tagged defaults), as the diagnosis relies on", async () => {
    const oracle = await Oracle.start('4.4.0');
    try {
      const diffs: string[] = [];
      for (const def of [Fetch.response, Produce.request, Produce.response] as MessageDef[]) {
        const { min, max } = parseRange(def.validVersions);
        for (let v = Math.max(min, 4); v <= max; v++) {
          for (const c of casesFor(def, v, { seed: 5, messages: 3 })) {
            const w = new Writer();
            messageCodec(def, v).encode(w, c.value as never);
            const json = (await oracle.decode(def.name, v, w.toBuffer())) as Record<string, unknown>;
            const found = diffMessage(def.fields, c.value, fromKafkaJson(def.fields, json, v), v);
            diffs.push(...found.map((d) => `${def.name} v${v} #${c.index}: ${d}`));
          }
        }
      }
      expect(diffs).toEqual([]);
    } finally {
      oracle.close();
    }
  });
});
