/**
 * CreateTopics and DeleteTopics definitions: every version's request and response bytes, and what each refuses.
 */
import { describe, expect, it } from 'vitest';
import { Reader } from '../../../codecs/reader.js';
import { CreateTopics, type CreateTopicsResponse } from '../../../protocol/apis/create-topics.js';
import { DeleteTopics, type DeleteTopicsResponse } from '../../../protocol/apis/delete-topics.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';
import { decodeError, encode, hex, ID_HEX, TOPIC_ID, versionsOf, when, ZERO_ID } from './helpers.js';

const OTHER_ID = Buffer.from('fedcba9876543210fedcba9876543210', 'hex').toString('base64url');

// ------------------------------------------------------------ CreateTopics

function createTopicsRequest(v: number) {
  return {
    topics: [
      {
        name: 'orders',
        numPartitions: 6,
        replicationFactor: 3,
        assignments: [],
        configs: [
          { name: 'cleanup.policy', value: 'compact' },
          { name: 'retention.ms', value: null },
        ],
      },
      {
        name: 'placed',
        numPartitions: -1,
        replicationFactor: -1,
        assignments: [
          { partitionIndex: 0, brokerIds: [1, 2] },
          { partitionIndex: 1, brokerIds: [2, 3] },
        ],
        configs: [],
      },
    ],
    timeoutMs: 30000,
    validateOnly: when(v, '1+', true, false),
  };
}

function createTopicsResponse(v: number): CreateTopicsResponse {
  return {
    throttleTimeMs: when(v, '2+', 25, 0),
    topics: [
      {
        name: 'orders',
        topicId: when(v, '7+', TOPIC_ID, ZERO_ID),
        errorCode: 0,
        errorMessage: when(v, '1+', null, ''),
        topicConfigErrorCode: when(v, '5+', 29, 0), // TOPIC_AUTHORIZATION_FAILED
        numPartitions: when(v, '5+', 6, -1),
        replicationFactor: when(v, '5+', 3, -1),
        configs: when(
          v,
          '5+',
          [
            { name: 'cleanup.policy', value: 'compact', readOnly: false, configSource: 1, isSensitive: false },
            { name: 'sasl.jaas.config', value: null, readOnly: true, configSource: 5, isSensitive: true },
          ],
          [],
        ),
      },
      {
        name: 'taken',
        topicId: ZERO_ID,
        errorCode: 36, // TOPIC_ALREADY_EXISTS
        errorMessage: when(v, '1+', "Topic 'taken' already exists.", ''),
        topicConfigErrorCode: 0,
        numPartitions: -1,
        replicationFactor: -1,
        configs: when(v, '5+', null, []),
      },
    ],
  };
}

describe('CreateTopics', () => {
  it.each(versionsOf(CreateTopics))('round-trips a request and a response at v%i', (v) => {
    const req = requestCodec(CreateTopics, v);
    const request = createTopicsRequest(v);
    expect(req.decode(new Reader(encode(req, request)))).toEqual(request);

    const res = responseCodec(CreateTopics, v);
    const response = createTopicsResponse(v);
    const reader = new Reader(encode(res, response));
    expect(res.decode(reader)).toEqual(response);
    expect(reader.remaining).toBe(0);
  });

  it('writes the v1 request with validateOnly after timeoutMs', () => {
    const bytes = encode(requestCodec(CreateTopics, 1), {
      topics: [
        {
          name: 't',
          numPartitions: 1,
          replicationFactor: 1,
          assignments: [{ partitionIndex: 0, brokerIds: [4] }],
          configs: [{ name: 'k', value: null }],
        },
      ],
      timeoutMs: 5000,
      validateOnly: true,
    });
    expect(bytes.toString('hex')).toBe(
      hex(`
        00000001 0001 74 00000001 0001
          00000001 00000000 00000001 00000004
          00000001 0001 6b ffff
        00001388 01
      `),
    );
  });

  it('writes the v5 request compactly and fills in the default timeout', () => {
    const bytes = encode(requestCodec(CreateTopics, 5), {
      topics: [{ name: 't', numPartitions: -1, replicationFactor: -1, assignments: [], configs: [] }],
    });
    // topics | name | numPartitions | replicationFactor | assignments | configs | topic tags | 60000 | false | tags
    expect(bytes.toString('hex')).toBe(hex('02 0274 ffffffff ffff 01 01 00 0000ea60 00 00'));
  });

  it('writes the v5 response with a tagged topicConfigErrorCode in the topic', () => {
    const codec = responseCodec(CreateTopics, 5);
    const value = {
      throttleTimeMs: 0,
      topics: [
        {
          name: 't',
          errorCode: 0,
          errorMessage: null,
          topicConfigErrorCode: 29,
          numPartitions: 3,
          replicationFactor: 1,
          configs: [{ name: 'x', value: 'y', readOnly: false, configSource: 5, isSensitive: false }],
        },
      ],
    };
    const bytes = encode(codec, value);
    expect(bytes.toString('hex')).toBe(
      hex(`
        00000000 02
          0274 0000 00 00000003 0001
          02 0278 0279 00 05 00 00
          01 00 02 001d
        00
      `),
    );
    expect(codec.decode(new Reader(bytes))).toEqual({
      ...value,
      topics: [{ ...value.topics[0], topicId: ZERO_ID, _unknownTaggedFields: undefined }],
    });
    // Left at its default, the tagged field is not written at all.
    const plain = encode(codec, { topics: [{ ...value.topics[0], topicConfigErrorCode: 0 }] });
    expect(plain.toString('hex')).toBe(hex('00000000 02 0274 0000 00 00000003 0001 02 0278 0279 00 05 00 00 00 00'));
  });

  it('writes the v7 response with the topic id after the name', () => {
    const bytes = encode(responseCodec(CreateTopics, 7), {
      throttleTimeMs: 0,
      topics: [{ name: 't', topicId: TOPIC_ID, errorCode: 0, errorMessage: null, configs: null }],
    });
    expect(bytes.toString('hex')).toBe(hex(`00000000 02 0274 ${ID_HEX} 0000 00 ffffffff ffff 00 00 00`));
  });

  it('refuses validateOnly before v1 rather than creating topics for real', () => {
    expect(() => encode(requestCodec(CreateTopics, 0), { topics: [], validateOnly: true })).toThrow(
      /validateOnly is not supported in version 0/,
    );
    expect(encode(requestCodec(CreateTopics, 0), { topics: [], validateOnly: false }).toString('hex')).toBe(
      hex('00000000 0000ea60'),
    );
  });

  it('reports truncation as a ProtocolError naming the field', () => {
    const codec = responseCodec(CreateTopics, 6);
    const one = { topics: [createTopicsResponse(6).topics[0]] };
    const bytes = encode(codec, one);
    // throttle | count | name 'orders' (7) | errorCode | null message | then 2 of numPartitions' 4 bytes
    const err = decodeError(() => codec.decode(new Reader(bytes.subarray(0, 4 + 1 + 7 + 2 + 1 + 2))));
    expect(err).toMatchObject({ api: 'CreateTopicsResponse', version: 6, field: 'topics.numPartitions' });

    const v2 = responseCodec(CreateTopics, 2);
    const b2 = encode(v2, createTopicsResponse(2));
    expect(() => v2.decode(new Reader(b2.subarray(0, b2.length - 1)))).toThrow(
      /CreateTopicsResponse v2, field topics.errorMessage/,
    );
  });
});

// ------------------------------------------------------------ DeleteTopics

function deleteTopicsRequest(v: number) {
  return {
    topics: when(
      v,
      '6+',
      [
        { name: 'orders', topicId: ZERO_ID },
        { name: null, topicId: TOPIC_ID },
      ],
      [],
    ),
    topicNames: when(v, '0-5', ['orders', 'payments'], []),
    timeoutMs: 15000,
  };
}

function deleteTopicsResponse(v: number): DeleteTopicsResponse {
  return {
    throttleTimeMs: when(v, '1+', 3, 0),
    responses: [
      {
        name: 'orders',
        topicId: when(v, '6+', OTHER_ID, ZERO_ID),
        errorCode: 0,
        errorMessage: null,
      },
      {
        name: when(v, '6+', null, 'payments'),
        topicId: when(v, '6+', TOPIC_ID, ZERO_ID),
        errorCode: when(v, '6+', 100, 3), // UNKNOWN_TOPIC_ID / UNKNOWN_TOPIC_OR_PARTITION
        errorMessage: when(v, '5+', 'This server does not host this topic ID.', null),
      },
    ],
  };
}

describe('DeleteTopics', () => {
  it.each(versionsOf(DeleteTopics))('round-trips a request and a response at v%i', (v) => {
    const req = requestCodec(DeleteTopics, v);
    const request = deleteTopicsRequest(v);
    expect(req.decode(new Reader(encode(req, request)))).toEqual(request);

    const res = responseCodec(DeleteTopics, v);
    const response = deleteTopicsResponse(v);
    const reader = new Reader(encode(res, response));
    expect(res.decode(reader)).toEqual(response);
    expect(reader.remaining).toBe(0);
  });

  it('writes the v0 request as a list of names and a timeout', () => {
    const bytes = encode(requestCodec(DeleteTopics, 0), { topicNames: ['a', 'bc'], timeoutMs: 1000 });
    expect(bytes.toString('hex')).toBe(hex('00000002 0001 61 0002 6263 000003e8'));
  });

  it('writes the v4 request with compact strings and a tag section', () => {
    const bytes = encode(requestCodec(DeleteTopics, 4), { topicNames: ['a', 'bc'], timeoutMs: 1000 });
    expect(bytes.toString('hex')).toBe(hex('03 0261 03 6263 000003e8 00'));
  });

  it('writes the v6 request as name-or-id entries', () => {
    const bytes = encode(requestCodec(DeleteTopics, 6), {
      topics: [{ topicId: TOPIC_ID }, { name: 'a', topicId: ZERO_ID }],
      timeoutMs: 1000,
    });
    // An entry without a name takes the declared default, null.
    expect(bytes.toString('hex')).toBe(hex(`03 00 ${ID_HEX} 00 0261 ${'00'.repeat(16)} 00 000003e8 00`));
  });

  it('writes the v5 response with a nullable error message', () => {
    const bytes = encode(responseCodec(DeleteTopics, 5), {
      throttleTimeMs: 0,
      responses: [{ name: 'a', errorCode: 0 }],
    });
    expect(bytes.toString('hex')).toBe(hex('00000000 02 0261 0000 00 00 00'));
  });

  it('drops the names list after v5 (ignorable) but refuses id entries before v6', () => {
    expect(encode(requestCodec(DeleteTopics, 6), { topicNames: ['a'], timeoutMs: 0 }).toString('hex')).toBe(
      hex('01 00000000 00'),
    );
    expect(() => encode(requestCodec(DeleteTopics, 5), { topics: [{ topicId: TOPIC_ID }], timeoutMs: 0 })).toThrow(
      /topics is not supported in version 5/,
    );
  });

  it('reports truncation as a ProtocolError naming the field', () => {
    const codec = responseCodec(DeleteTopics, 6);
    const bytes = encode(codec, { responses: [deleteTopicsResponse(6).responses[0]] });
    // throttle | count | name 'orders' (7) | 14 of the topic id's 16 bytes
    const err = decodeError(() => codec.decode(new Reader(bytes.subarray(0, 4 + 1 + 7 + 14))));
    expect(err).toMatchObject({ api: 'DeleteTopicsResponse', version: 6, field: 'responses.topicId' });

    const req = requestCodec(DeleteTopics, 3);
    const b3 = encode(req, { topicNames: ['orders'], timeoutMs: 1 });
    expect(() => req.decode(new Reader(b3.subarray(0, b3.length - 2)))).toThrow(
      /DeleteTopicsRequest v3, field timeoutMs/,
    );
  });
});
