import { describe, expect, it } from 'vitest';
import { Writer } from '../../../codecs/writer.js';
import { ConsumerProtocolAssignment, ConsumerProtocolSubscription } from '../../../protocol/apis/consumer-protocol.js';
import { messageCodec } from '../../../protocol/codec.js';
import { decodeAssignment, decodeSubscribedTopics } from '../../../src/admin/consumer-protocol-bytes.js';
import { InvalidOffsetsExportError } from '../../../src/admin/group-errors.js';
import { OFFSETS_EXPORT_FORMAT, parseOffsetsExport } from '../../../src/admin/offsets-json.js';

const valid = {
  format: OFFSETS_EXPORT_FORMAT,
  version: 1,
  groupId: 'g',
  exportedAt: '2026-01-01T00:00:00.000Z',
  offsets: [{ topic: 't', partition: 0, offset: '9223372036854775807', leaderEpoch: 3, metadata: null }],
};

describe('parseOffsetsExport', () => {
  it('accepts an export, as text or object, offsets beyond 2^53 included', () => {
    expect(parseOffsetsExport(JSON.stringify(valid)).offsets[0].offset).toBe('9223372036854775807');
    expect(parseOffsetsExport(valid).groupId).toBe('g');
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['another format', { ...valid, format: 'x' }, /format/],
    ['a newer version', { ...valid, version: 2 }, /version/],
    ['no group', { ...valid, groupId: '' }, /groupId/],
    ['a numeric offset', { ...valid, offsets: [{ ...valid.offsets[0], offset: 5 }] }, /offsets\[0\]\.offset/],
    ['an offset past int64', { ...valid, offsets: [{ ...valid.offsets[0], offset: '9223372036854775808' }] }, /int64/],
    ['a negative partition', { ...valid, offsets: [{ ...valid.offsets[0], partition: -1 }] }, /partition/],
    ['a repeated partition', { ...valid, offsets: [valid.offsets[0], valid.offsets[0]] }, /repeats t-0/],
  ])('rejects %s with a typed error', (_name, input, message) => {
    expect(() => parseOffsetsExport(input)).toThrow(InvalidOffsetsExportError);
    expect(() => parseOffsetsExport(input)).toThrow(message);
  });
});

function withVersion(version: number, def: Parameters<typeof messageCodec>[0], value: object): Buffer {
  const w = new Writer();
  w.int16(version);
  messageCodec(def, Math.min(version, 3)).encode(w, value as never);
  return w.toBuffer();
}

describe('consumer protocol bytes', () => {
  it('decodes a member assignment of every version, and empty bytes as no partitions', () => {
    for (const v of [0, 1, 2, 3]) {
      const bytes = withVersion(v, ConsumerProtocolAssignment, {
        assignedPartitions: [{ topic: 't', partitions: [0, 2] }],
        userData: null,
      });
      expect(decodeAssignment(bytes)).toEqual([
        { topic: 't', partition: 0 },
        { topic: 't', partition: 2 },
      ]);
    }
    expect(decodeAssignment(Buffer.alloc(0))).toEqual([]);
  });

  it('reads a newer version by the fields it knows', () => {
    const bytes = Buffer.concat([
      withVersion(4, ConsumerProtocolSubscription, { topics: ['x', 'y'], userData: null }),
      Buffer.from([1, 2, 3]),
    ]);
    expect(decodeSubscribedTopics(bytes)).toEqual(['x', 'y']);
  });

  it('refuses a negative version with a protocol error', () => {
    expect(() => decodeAssignment(Buffer.from([0xff, 0xff]))).toThrow(/negative/);
  });
});
