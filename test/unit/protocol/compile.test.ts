import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { Metadata } from '../../../protocol/apis/metadata.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';

function roundTrip<T>(codec: { encode(w: Writer, v: T): void; decode(r: Reader): unknown }, value: T): Buffer {
  const w = new Writer();
  codec.encode(w, value);
  return w.toBuffer();
}

describe('compiled ApiVersions codecs', () => {
  it('writes the v3 request with compact strings and an empty tag section', () => {
    const bytes = roundTrip(requestCodec(ApiVersions, 3), { clientSoftwareName: 'tm', clientSoftwareVersion: '1' });
    expect(bytes.toString('hex')).toBe('03746d023100');
  });

  it('writes nothing for the v0 request', () => {
    expect(roundTrip(requestCodec(ApiVersions, 0), {}).length).toBe(0);
  });

  it('round-trips a v3 response with tagged fields, keeping defaults when absent', () => {
    const codec = responseCodec(ApiVersions, 3);
    const value = {
      errorCode: 0,
      apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 4 }],
      throttleTimeMs: 5,
      finalizedFeaturesEpoch: 7n,
      supportedFeatures: [{ name: 'metadata.version', minVersion: 1, maxVersion: 20 }],
    };
    const bytes = roundTrip(codec, value);
    const back = codec.decode(new Reader(bytes));
    expect(back).toMatchObject({ ...value, finalizedFeatures: [], zkMigrationReady: false });
    // An absent tagged field decodes to its declared default.
    const bare = codec.decode(new Reader(roundTrip(codec, { apiKeys: [] })));
    expect(bare.finalizedFeaturesEpoch).toBe(-1n);
  });

  it('reports truncation as a ProtocolError naming the API, version and field', () => {
    const codec = responseCodec(ApiVersions, 2);
    const bytes = roundTrip(codec, { apiKeys: [{ apiKey: 1, minVersion: 0, maxVersion: 3 }] });
    const err = (() => {
      try {
        codec.decode(new Reader(bytes.subarray(0, bytes.length - 5)));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).api).toBe('ApiVersionsResponse');
    expect((err as ProtocolError).version).toBe(2);
    // The element count is checked against the bytes left before any element is read.
    expect((err as ProtocolError).field).toBe('apiKeys');
    expect(() => codec.decode(new Reader(bytes.subarray(0, bytes.length - 1)))).toThrow(/field throttleTimeMs/);
  });

  it('refuses an array count the remaining bytes cannot hold, before allocating', () => {
    const codec = responseCodec(ApiVersions, 0);
    const hostile = Buffer.from([0, 0, 0x7f, 0xff, 0xff, 0xff, 0, 1]);
    expect(() => codec.decode(new Reader(hostile))).toThrow(/array claims 2147483647 elements/);
  });

  it('drops an ignorable field in a version that lacks it, as Kafka does', () => {
    expect(roundTrip(requestCodec(ApiVersions, 2), { clientSoftwareName: 'x' }).length).toBe(0);
  });

  it('refuses a non-ignorable field with a non-default value in a version that lacks it', () => {
    const codec = requestCodec(Metadata, 3);
    expect(() => roundTrip(codec, { topics: null, allowAutoTopicCreation: false })).toThrow(
      expect.objectContaining({ name: 'ProtocolError', field: 'allowAutoTopicCreation' }),
    );
    // The default value is what the version implies, so it is accepted.
    expect(roundTrip(codec, { topics: null, allowAutoTopicCreation: true }).toString('hex')).toBe('ffffffff');
  });
});
