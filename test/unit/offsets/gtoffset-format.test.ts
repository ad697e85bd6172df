import { describe, expect, it } from 'vitest';
import { crc32c } from '../../../codecs/crc.js';
import { CorruptOffsetFileError } from '../../../src/offsets/errors.js';
import { parseGtoffset, serializeGtoffset } from '../../../src/offsets/file/gtoffset-format.js';
import type { StoredOffset } from '../../../src/offsets/offset-store.js';

const T0 = Date.parse('2024-05-01T12:00:00.000Z');
const HEADER = '# partition offset leader-epoch committed-at [metadata]';

function sample(): Map<number, StoredOffset> {
  return new Map<number, StoredOffset>([
    [0, { offset: 1200n, leaderEpoch: 5, committedAt: T0 }],
    [1, { offset: 1180n, leaderEpoch: null, committedAt: T0 + 120, metadata: 'batch "17"\n with  spaces' }],
    [7, { offset: (1n << 63n) - 1n, leaderEpoch: 2 ** 31 - 1, committedAt: 0 }],
  ]);
}

/** Appends a correct checksum line, so the strict parser's other checks can be reached. */
function sign(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  return Buffer.concat([bytes, Buffer.from(`checksum crc32c:${crc32c(bytes).toString(16).padStart(8, '0')}\n`)]);
}

function problem(bytes: Uint8Array, expected?: { group: string; topic: string }): string {
  try {
    parseGtoffset(bytes, '/x/gtoffset', expected);
  } catch (error) {
    expect(error).toBeInstanceOf(CorruptOffsetFileError);
    expect((error as CorruptOffsetFileError).file).toBe('/x/gtoffset');
    return (error as CorruptOffsetFileError).problem;
  }
  throw new Error('parsed without error');
}

describe('gtoffset format', () => {
  it('writes the documented human-readable text', () => {
    const text = serializeGtoffset({ group: 'billing', topic: 'orders', partitions: sample() }).toString('utf8');
    const lines = text.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'tidemark-gtoffset 1',
      'group "billing"',
      'topic "orders"',
      HEADER,
      '0 1200 5 2024-05-01T12:00:00.000Z',
      '1 1180 - 2024-05-01T12:00:00.120Z "batch \\"17\\"\\n with  spaces"',
    ]);
    expect(lines[6]).toBe('7 9223372036854775807 2147483647 1970-01-01T00:00:00.000Z');
    expect(lines[7]).toMatch(/^checksum crc32c:[0-9a-f]{8}$/);
    expect(lines[8]).toBe('');
  });

  it('round-trips any names, metadata and the extreme values', () => {
    for (const group of ['billing', '', 'grüppe "x"\n\t\u2028', 'g'.repeat(10_000), '😀']) {
      const bytes = serializeGtoffset({ group, topic: 'Orders.v2', partitions: sample() });
      const parsed = parseGtoffset(bytes, 'f', { group, topic: 'Orders.v2' });
      expect(parsed.group).toBe(group);
      expect(parsed.partitions).toEqual(sample());
    }
    const empty = parseGtoffset(serializeGtoffset({ group: 'g', topic: 't', partitions: new Map() }), 'f');
    expect(empty.partitions.size).toBe(0);
  });

  it('detects every single changed byte', () => {
    const bytes = serializeGtoffset({ group: 'billing', topic: 'orders', partitions: sample() });
    for (let i = 0; i < bytes.length; i++) {
      for (const mask of [0x01, 0x20]) {
        const flipped = Buffer.from(bytes);
        flipped[i] ^= mask;
        expect(() => parseGtoffset(flipped, 'f'), `byte ${i} ^ ${mask}`).toThrow(CorruptOffsetFileError);
      }
    }
  });

  it('detects a hand-edited offset', () => {
    const text = serializeGtoffset({ group: 'billing', topic: 'orders', partitions: sample() }).toString();
    const edited = Buffer.from(text.replace('0 1200 5', '0 1300 5'));
    expect(problem(edited)).toMatch(/^checksum mismatch/);
  });

  it('detects truncation at every length, never parsing a prefix', () => {
    const bytes = serializeGtoffset({ group: 'billing', topic: 'orders', partitions: sample() });
    for (let length = 0; length < bytes.length; length++) {
      expect(() => parseGtoffset(bytes.subarray(0, length), 'f'), `length ${length}`).toThrow(CorruptOffsetFileError);
    }
    expect(problem(bytes.subarray(0, 0))).toBe('empty file');
    expect(problem(bytes.subarray(0, 10))).toBe('truncated in the first line');
    expect(problem(bytes.subarray(0, bytes.length - 1))).toMatch(/^truncated/);
  });

  it('names each structural problem, even under a valid checksum', () => {
    const head = `tidemark-gtoffset 1\ngroup "g"\ntopic "t"\n${HEADER}\n`;
    const line = (rest: string) => sign(`${head}${rest}`);
    const cases: Array<[Buffer, RegExp]> = [
      [Buffer.from('hello\n'), /not a gtoffset file/],
      [sign(`tidemark-gtoffset 2\ngroup "g"\n`), /unknown format version 2/],
      [line('0 5 - 2024-05-01T12:00:00.000Z\n0 6 - 2024-05-01T12:00:00.000Z\n'), /line 6: duplicate partition 0/],
      [line('3 5 - 2024-05-01T12:00:00.000Z\n1 6 - 2024-05-01T12:00:00.000Z\n'), /out of order/],
      [line('0 -5 - 2024-05-01T12:00:00.000Z\n'), /offset "-5"/],
      [line('0 5.5 - 2024-05-01T12:00:00.000Z\n'), /offset "5.5"/],
      [line('0 05 - 2024-05-01T12:00:00.000Z\n'), /offset "05"/],
      [line('0 9223372036854775808 - 2024-05-01T12:00:00.000Z\n'), /not an int64/],
      [line('-1 5 - 2024-05-01T12:00:00.000Z\n'), /partition "-1"/],
      [line('2147483648 5 - 2024-05-01T12:00:00.000Z\n'), /partition/],
      [line('0 5 -1 2024-05-01T12:00:00.000Z\n'), /leader epoch "-1"/],
      [line('0 5 - 2024-02-30T12:00:00.000Z\n'), /bad commit time/],
      [line('0 5 - 2024-05-01T12:00:00Z\n'), /bad commit time/],
      [line('0 5 -  2024-05-01T12:00:00.000Z\n'), /bad commit time/],
      [line('0 5 - 2024-05-01T12:00:00.000Z \n'), /metadata/],
      [line('0 5 - 2024-05-01T12:00:00.000Z ""\n'), /metadata/],
      [line('0 5 - 2024-05-01T12:00:00.000Z "\\u0061"\n'), /metadata/],
      [line('0 5\n'), /line 5: expected/],
      [line('\n'), /line 5: expected/],
      [sign(`tidemark-gtoffset 1\ngroup g\ntopic "t"\n${HEADER}\n`), /line 2: expected group/],
      [sign(`tidemark-gtoffset 1\ngroup "g"\ntopic "t"\n# columns\n`), /line 4/],
      [sign(`tidemark-gtoffset 1\r\ngroup "g"\n`), /not a gtoffset file/],
      [Buffer.concat([sign(head), Buffer.from('garbage\n')]), /no checksum line/],
      [Buffer.concat([sign(head), sign('x\n')]), /checksum mismatch/],
      [Buffer.concat([sign(head), Buffer.from('\n')]), /no checksum line/],
    ];
    for (const [bytes, expected] of cases) expect(problem(bytes)).toMatch(expected);
  });

  it('refuses a file that belongs to another group or topic', () => {
    const bytes = serializeGtoffset({ group: 'billing', topic: 'orders', partitions: sample() });
    expect(problem(bytes, { group: 'Billing', topic: 'orders' })).toMatch(/belongs to group "billing"/);
    expect(problem(bytes, { group: 'billing', topic: 'orders2' })).toMatch(/belongs to topic "orders"/);
  });

  it('refuses invalid UTF-8 even under a valid checksum', () => {
    const body = Buffer.concat([
      Buffer.from('tidemark-gtoffset 1\ngroup "'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"\n'),
    ]);
    const sum = crc32c(body).toString(16).padStart(8, '0');
    expect(problem(Buffer.concat([body, Buffer.from(`checksum crc32c:${sum}\n`)]))).toBe('not valid UTF-8');
  });
});
