/**
 * Metadata's definition against Kafka's: the version range of the topic APIs, and every Metadata version's
 * request and response bytes. CreateTopics and DeleteTopics are in topic-admin-apis.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { CreateTopics } from '../../../protocol/apis/create-topics.js';
import { DeleteTopics } from '../../../protocol/apis/delete-topics.js';
import { Metadata, type MetadataRequest, type MetadataResponse } from '../../../protocol/apis/metadata.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';
import { inRange } from '../../../protocol/versions.js';
import { decodeError, encode, hex, ID_HEX, TOPIC_ID, versionsOf, when, ZERO_ID } from './helpers.js';

const OTHER_ID = Buffer.from('fedcba9876543210fedcba9876543210', 'hex').toString('base64url');
const NOT_REQUESTED = -2147483648;

describe('API definitions', () => {
  it('cover the union of what Kafka 3.9 and 4.x accept', () => {
    expect([Metadata.key, Metadata.request.validVersions, Metadata.request.flexibleVersions]).toEqual([
      3,
      '0-13',
      '9+',
    ]);
    expect([CreateTopics.key, CreateTopics.request.validVersions, CreateTopics.request.flexibleVersions]).toEqual([
      19,
      '0-7',
      '5+',
    ]);
    expect([DeleteTopics.key, DeleteTopics.request.validVersions, DeleteTopics.request.flexibleVersions]).toEqual([
      20,
      '0-6',
      '4+',
    ]);
    expect(Metadata.response.name).toBe('MetadataResponse');
    expect(() => requestCodec(Metadata, 14).encode(new Writer(), {})).toThrow(ProtocolError);
    expect(() => requestCodec(CreateTopics, 8).encode(new Writer(), {})).toThrow(ProtocolError);
    expect(() => requestCodec(DeleteTopics, 7).encode(new Writer(), {})).toThrow(ProtocolError);
  });
});

// ---------------------------------------------------------------- Metadata

function metadataRequest(v: number): MetadataRequest {
  const byId = inRange('12+', v);
  return {
    topics: [
      { topicId: ZERO_ID, name: 'orders' },
      // Lookups by id (name null) are only served from v12.
      byId ? { topicId: TOPIC_ID, name: null } : { topicId: ZERO_ID, name: 'payments' },
    ],
    allowAutoTopicCreation: when(v, '4+', false, true),
    includeClusterAuthorizedOperations: when(v, '8-10', true, false),
    includeTopicAuthorizedOperations: when(v, '8+', true, false),
  };
}

function metadataResponse(v: number): MetadataResponse {
  return {
    throttleTimeMs: when(v, '3+', 12, 0),
    brokers: [
      { nodeId: 1, host: 'kafka-1.internal', port: 9092, rack: when(v, '1+', 'eu-west-1a', null) },
      { nodeId: 2, host: 'kafka-2.internal', port: 9093, rack: null },
    ],
    clusterId: when(v, '2+', 'MkU3OEVBNTcwNTJENDM2Qg', null),
    controllerId: when(v, '1+', 2, -1),
    topics: [
      {
        errorCode: 0,
        name: 'orders',
        topicId: when(v, '10+', TOPIC_ID, ZERO_ID),
        isInternal: when(v, '1+', true, false),
        partitions: [
          {
            errorCode: 0,
            partitionIndex: 0,
            leaderId: 1,
            leaderEpoch: when(v, '7+', 4, -1),
            replicaNodes: [1, 2],
            isrNodes: [1, 2],
            offlineReplicas: [],
          },
          {
            errorCode: 9, // REPLICA_NOT_AVAILABLE
            partitionIndex: 1,
            leaderId: 2,
            leaderEpoch: when(v, '7+', 7, -1),
            replicaNodes: [2, 3],
            isrNodes: [2],
            offlineReplicas: when(v, '5+', [3], []),
          },
        ],
        topicAuthorizedOperations: when(v, '8+', 0b110111111000, NOT_REQUESTED),
      },
      {
        errorCode: 3, // UNKNOWN_TOPIC_OR_PARTITION
        name: when(v, '12+', null, 'missing'),
        topicId: when(v, '12+', OTHER_ID, ZERO_ID),
        isInternal: false,
        partitions: [],
        topicAuthorizedOperations: NOT_REQUESTED,
      },
    ],
    clusterAuthorizedOperations: when(v, '8-10', 0b1111111000, NOT_REQUESTED),
    errorCode: 0, // v13+: the top-level error (e.g. REBOOTSTRAP_REQUIRED); 0 when all went well
  };
}

describe('Metadata', () => {
  it.each(versionsOf(Metadata))('round-trips a request and a response at v%i', (v) => {
    const req = requestCodec(Metadata, v);
    const request = metadataRequest(v);
    expect(req.decode(new Reader(encode(req, request)))).toEqual(request);

    const res = responseCodec(Metadata, v);
    const response = metadataResponse(v);
    const bytes = encode(res, response);
    const reader = new Reader(bytes);
    expect(res.decode(reader)).toEqual(response);
    expect(reader.remaining).toBe(0);
  });

  it('writes the v0 request for one topic: int32 count, int16-length name', () => {
    expect(encode(requestCodec(Metadata, 0), { topics: [{ name: 'a' }] }).toString('hex')).toBe('00000001000161');
  });

  it('writes "all topics" as an empty array in v0 and as a null array from v1', () => {
    expect(encode(requestCodec(Metadata, 0), { topics: [] }).toString('hex')).toBe('00000000');
    expect(encode(requestCodec(Metadata, 1), { topics: null }).toString('hex')).toBe('ffffffff');
    expect(() => encode(requestCodec(Metadata, 0), { topics: null })).toThrow(/topics may not be null in version 0/);
    expect(requestCodec(Metadata, 1).decode(new Reader(Buffer.from('ffffffff', 'hex'))).topics).toBeNull();
  });

  it('writes the v4 request with allowAutoTopicCreation after the topics', () => {
    const bytes = encode(requestCodec(Metadata, 4), { topics: [{ name: 'a' }], allowAutoTopicCreation: false });
    expect(bytes.toString('hex')).toBe(hex('00000001 0001 61 00'));
  });

  it('writes the v9 request compactly, with tag sections and a root tagged field', () => {
    const bytes = encode(requestCodec(Metadata, 9), {
      topics: [{ name: 'a' }],
      allowAutoTopicCreation: true,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: true,
      _unknownTaggedFields: [{ tag: 5, data: Buffer.from([0xbe, 0xef]) }],
    });
    // count+1 | name len+1, 'a' | topic tags | auto | cluster ops | topic ops | 1 tag: #5, 2 bytes
    expect(bytes.toString('hex')).toBe(hex('02 0261 00 01 00 01 01 05 02 beef'));
    const back = requestCodec(Metadata, 9).decode(new Reader(bytes));
    expect(back._unknownTaggedFields).toEqual([{ tag: 5, data: Buffer.from([0xbe, 0xef]) }]);
    expect(back.topics).toEqual([{ topicId: ZERO_ID, name: 'a', _unknownTaggedFields: undefined }]);
  });

  it('writes the v12 request by topic id with a null name and no cluster-operations flag', () => {
    const bytes = encode(requestCodec(Metadata, 12), {
      topics: [{ topicId: TOPIC_ID, name: null }],
      allowAutoTopicCreation: false,
      includeTopicAuthorizedOperations: false,
    });
    expect(bytes.toString('hex')).toBe(hex(`02 ${ID_HEX} 00 00  00 00 00`));
  });

  it('writes a minimal v13 response with the top-level error code last', () => {
    const bytes = encode(responseCodec(Metadata, 13), {
      throttleTimeMs: 0,
      brokers: [],
      clusterId: null,
      controllerId: -1,
      topics: [],
      errorCode: 129, // REBOOTSTRAP_REQUIRED
    });
    expect(bytes.toString('hex')).toBe(hex('00000000 01 00 ffffffff 01 0081 00'));
  });

  it('reads a hand-built v1 response', () => {
    const bytes = Buffer.from(
      hex(`
        00000001 00000007 0002 6831 00002384 ffff
        00000007
        00000001 0000 0001 74 01
          00000001 0000 00000000 00000007 00000001 00000007 00000001 00000007
      `),
      'hex',
    );
    expect(responseCodec(Metadata, 1).decode(new Reader(bytes))).toEqual({
      throttleTimeMs: 0,
      brokers: [{ nodeId: 7, host: 'h1', port: 9092, rack: null }],
      clusterId: null,
      controllerId: 7,
      topics: [
        {
          errorCode: 0,
          name: 't',
          topicId: ZERO_ID,
          isInternal: true,
          partitions: [
            {
              errorCode: 0,
              partitionIndex: 0,
              leaderId: 7,
              leaderEpoch: -1,
              replicaNodes: [7],
              isrNodes: [7],
              offlineReplicas: [],
            },
          ],
          topicAuthorizedOperations: NOT_REQUESTED,
        },
      ],
      clusterAuthorizedOperations: NOT_REQUESTED,
      errorCode: 0,
    });
  });

  it('refuses request fields a version cannot carry instead of dropping them', () => {
    // Without v4's flag the broker would auto-create: never send that silently.
    expect(() => encode(requestCodec(Metadata, 3), { topics: [], allowAutoTopicCreation: false })).toThrow(
      /allowAutoTopicCreation is not supported in version 3/,
    );
    expect(() => encode(requestCodec(Metadata, 11), { topics: [], includeClusterAuthorizedOperations: true })).toThrow(
      ProtocolError,
    );
    // The topic id is ignorable: dropped before v10.
    expect(encode(requestCodec(Metadata, 9), { topics: [{ topicId: TOPIC_ID, name: 'a' }] }).toString('hex')).toBe(
      hex('02 0261 00 01 00 00 00'),
    );
  });

  it('reports truncation as a ProtocolError naming the nested field', () => {
    const codec = responseCodec(Metadata, 10);
    const bytes = encode(codec, metadataResponse(10));
    const err = decodeError(() => codec.decode(new Reader(bytes.subarray(0, bytes.length - 12))));
    expect(err.api).toBe('MetadataResponse');
    expect(err.version).toBe(10);
    expect(err.field).toMatch(/^topics\./);

    const v0 = responseCodec(Metadata, 0);
    // count | nodeId | host 'kafka-1' (2 + 7 bytes) | port: cut 3 bytes into the host, after the
    // count check (which only needs one element's minimum of 10 bytes) has passed.
    const full = encode(v0, { brokers: [{ nodeId: 1, host: 'kafka-1', port: 1 }], topics: [] });
    const e0 = decodeError(() => v0.decode(new Reader(full.subarray(0, 4 + 4 + 2 + 6))));
    expect(e0).toBeInstanceOf(ProtocolError);
    expect(e0.field).toBe('brokers.host');
    expect(e0.message).toMatch(/MetadataResponse v0, field brokers.host/);
  });
});
