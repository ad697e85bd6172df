/**
 * Produce, ListOffsets, DeleteRecords, InitProducerId and OffsetForLeaderEpoch definitions: version ranges and
 * every version's request and response bytes. Fetch is in fetch-api.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import {
  DeleteRecords,
  type DeleteRecordsRequest,
  type DeleteRecordsResponse,
} from '../../../protocol/apis/delete-records.js';
import { Fetch } from '../../../protocol/apis/fetch.js';
import {
  InitProducerId,
  type InitProducerIdRequest,
  type InitProducerIdResponse,
} from '../../../protocol/apis/init-producer-id.js';
import { ListOffsets, type ListOffsetsRequest, type ListOffsetsResponse } from '../../../protocol/apis/list-offsets.js';
import {
  OffsetForLeaderEpoch,
  type OffsetForLeaderEpochRequest,
  type OffsetForLeaderEpochResponse,
} from '../../../protocol/apis/offset-for-leader-epoch.js';
import { Produce, type ProduceRequest, type ProduceResponse } from '../../../protocol/apis/produce.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';
import { inRange } from '../../../protocol/versions.js';
import { encode, hex, roundTrip, TOPIC_ID, versionsOf, when, ZERO_ID } from './helpers.js';

// Opaque here: the record-batch codec owns the contents.
const BATCH = Buffer.from('0000000000000000000000390000000002', 'hex');
const EMPTY = Buffer.alloc(0);

describe('version ranges', () => {
  it('cover the union of what Kafka 3.9 and 4.x accept', () => {
    const table = [Produce, Fetch, ListOffsets, DeleteRecords, InitProducerId, OffsetForLeaderEpoch].map((a) => [
      a.key,
      a.request.validVersions,
      a.request.flexibleVersions,
    ]);
    expect(table).toEqual([
      [0, '0-13', '9+'],
      [1, '0-18', '12+'],
      [2, '0-11', '6+'],
      [21, '0-2', '2+'],
      [22, '0-5', '2+'],
      [23, '0-4', '4+'],
    ]);
    expect(Fetch.response.name).toBe('FetchResponse');
    expect(() => encode(requestCodec(Fetch, 19), {})).toThrow(/FetchRequest has no version 19/);
  });
});

// ------------------------------------------------------------------ Produce

function produceRequest(v: number): ProduceRequest {
  const byId = inRange('13+', v);
  return {
    transactionalId: when(v, '3+', 'payments-tx', null),
    acks: -1,
    timeoutMs: 30000,
    topicData: [
      {
        name: byId ? '' : 'orders',
        topicId: byId ? TOPIC_ID : ZERO_ID,
        partitionData: [
          { index: 0, records: BATCH },
          { index: 3, records: EMPTY },
        ],
      },
    ],
  };
}

function produceResponse(v: number): ProduceResponse {
  const byId = inRange('13+', v);
  return {
    responses: [
      {
        name: byId ? '' : 'orders',
        topicId: byId ? TOPIC_ID : ZERO_ID,
        partitionResponses: [
          {
            index: 0,
            errorCode: 0,
            baseOffset: 81234n,
            logAppendTimeMs: when(v, '2+', 1718000000000n, -1n),
            logStartOffset: when(v, '5+', 100n, -1n),
            recordErrors: [],
            errorMessage: null,
            currentLeader: { leaderId: -1, leaderEpoch: -1 },
          },
          {
            index: 3,
            errorCode: when(v, '8+', 87, 6), // INVALID_RECORD (v8+), else NOT_LEADER_OR_FOLLOWER
            baseOffset: -1n,
            logAppendTimeMs: -1n,
            logStartOffset: -1n,
            recordErrors: when(v, '8+', [{ batchIndex: 2, batchIndexErrorMessage: 'timestamp out of range' }], []),
            errorMessage: when(v, '8+', 'one record was rejected', null),
            currentLeader: when(v, '10+', { leaderId: 2, leaderEpoch: 11 }, { leaderId: -1, leaderEpoch: -1 }),
          },
        ],
      },
    ],
    throttleTimeMs: when(v, '1+', 40, 0),
    nodeEndpoints: when(v, '10+', [{ nodeId: 2, host: 'kafka-2.internal', port: 9093, rack: null }], []),
  };
}

describe('Produce', () => {
  it.each(versionsOf(Produce))('round-trips a request and a response at v%i', (v) => {
    roundTrip(Produce, v, produceRequest, produceResponse);
  });

  it('writes the v3 request: nullable transactional id, int32-length records', () => {
    const bytes = encode(requestCodec(Produce, 3), {
      transactionalId: null,
      acks: 1,
      timeoutMs: 1000,
      topicData: [{ name: 't', partitionData: [{ index: 0, records: Buffer.from([0xab]) }] }],
    });
    expect(bytes.toString('hex')).toBe(hex('ffff 0001 000003e8 00000001 0001 74 00000001 00000000 00000001 ab'));
  });

  it('refuses a transactional id where the version cannot carry one', () => {
    expect(() => encode(requestCodec(Produce, 2), { transactionalId: 'tx', acks: 1, topicData: [] })).toThrow(
      /transactionalId is not supported in version 2/,
    );
  });
});

// -------------------------------------------------------------- ListOffsets

function listOffsetsRequest(v: number): ListOffsetsRequest {
  return {
    replicaId: -1,
    isolationLevel: when(v, '2+', 1, 0),
    topics: [
      {
        name: 'orders',
        partitions: [
          { partitionIndex: 0, currentLeaderEpoch: when(v, '4+', 11, -1), timestamp: -2n, maxNumOffsets: 1 },
          { partitionIndex: 1, currentLeaderEpoch: -1, timestamp: 1718000000000n, maxNumOffsets: 1 },
        ],
      },
    ],
    timeoutMs: when(v, '10+', 30000, 0),
  };
}

function listOffsetsResponse(v: number): ListOffsetsResponse {
  return {
    throttleTimeMs: when(v, '2+', 3, 0),
    topics: [
      {
        name: 'orders',
        partitions: [
          {
            partitionIndex: 0,
            errorCode: 0,
            oldStyleOffsets: when(v, '0', [100n], []),
            timestamp: -1n,
            offset: when(v, '1+', 100n, -1n),
            leaderEpoch: when(v, '4+', 11, -1),
          },
          {
            partitionIndex: 1,
            errorCode: 74, // FENCED_LEADER_EPOCH
            oldStyleOffsets: [],
            timestamp: -1n,
            offset: -1n,
            leaderEpoch: -1,
          },
        ],
      },
    ],
  };
}

describe('ListOffsets', () => {
  it.each(versionsOf(ListOffsets))('round-trips a request and a response at v%i', (v) => {
    roundTrip(ListOffsets, v, listOffsetsRequest, listOffsetsResponse);
  });

  it('writes the v1 request: replica id, then per partition only index and timestamp', () => {
    const bytes = encode(requestCodec(ListOffsets, 1), {
      replicaId: -1,
      topics: [{ name: 't', partitions: [{ partitionIndex: 0, timestamp: -2n }] }],
    });
    expect(bytes.toString('hex')).toBe(hex('ffffffff 00000001 0001 74 00000001 00000000 fffffffffffffffe'));
  });

  it('writes the v0 request with the number of offsets wanted (default 1)', () => {
    const bytes = encode(requestCodec(ListOffsets, 0), {
      replicaId: -1,
      topics: [{ name: 't', partitions: [{ partitionIndex: 0, timestamp: -1n }] }],
    });
    expect(bytes.toString('hex')).toBe(hex('ffffffff 00000001 0001 74 00000001 00000000 ffffffffffffffff 00000001'));
  });

  it('reads the v0 response offsets as a list', () => {
    const bytes = Buffer.from(
      hex('00000001 0001 74 00000001 00000000 0000 00000002 0000000000000064 0000000000000000'),
      'hex',
    );
    const back = responseCodec(ListOffsets, 0).decode(new Reader(bytes));
    expect(back.topics[0].partitions[0]).toMatchObject({ oldStyleOffsets: [100n, 0n], offset: -1n, timestamp: -1n });
  });
});

// ------------------------------------------------------------ DeleteRecords

function deleteRecordsRequest(): DeleteRecordsRequest {
  return {
    topics: [
      {
        name: 'orders',
        partitions: [
          { partitionIndex: 0, offset: 5000n },
          { partitionIndex: 1, offset: -1n },
        ],
      },
    ],
    timeoutMs: 30000,
  };
}

function deleteRecordsResponse(): DeleteRecordsResponse {
  return {
    throttleTimeMs: 0,
    topics: [
      {
        name: 'orders',
        partitions: [
          { partitionIndex: 0, lowWatermark: 5000n, errorCode: 0 },
          { partitionIndex: 1, lowWatermark: -1n, errorCode: 1 }, // OFFSET_OUT_OF_RANGE
        ],
      },
    ],
  };
}

describe('DeleteRecords', () => {
  it.each(versionsOf(DeleteRecords))('round-trips a request and a response at v%i', (v) => {
    roundTrip(DeleteRecords, v, deleteRecordsRequest, deleteRecordsResponse);
  });
});

// ----------------------------------------------------------- InitProducerId

function initProducerIdRequest(v: number): InitProducerIdRequest {
  return {
    transactionalId: v % 2 === 0 ? 'payments-tx' : null,
    transactionTimeoutMs: 60000,
    producerId: when(v, '3+', 4001n, -1n),
    producerEpoch: when(v, '3+', 2, -1),
  };
}

function initProducerIdResponse(v: number): InitProducerIdResponse {
  return { throttleTimeMs: 0, errorCode: 0, producerId: 4001n + BigInt(v), producerEpoch: 3 };
}

describe('InitProducerId', () => {
  it.each(versionsOf(InitProducerId))('round-trips a request and a response at v%i', (v) => {
    roundTrip(InitProducerId, v, initProducerIdRequest, initProducerIdResponse);
  });

  it('writes the v2 (flexible) request for an idempotent producer', () => {
    const bytes = encode(requestCodec(InitProducerId, 2), { transactionalId: null, transactionTimeoutMs: 2147483647 });
    expect(bytes.toString('hex')).toBe('007fffffff00');
  });

  it('leaves out the unstable v6', () => {
    expect(() => encode(requestCodec(InitProducerId, 6), {})).toThrow(ProtocolError);
  });
});

// ----------------------------------------------------- OffsetForLeaderEpoch

function offsetForLeaderEpochRequest(v: number): OffsetForLeaderEpochRequest {
  return {
    replicaId: when(v, '3+', -1, -2),
    topics: [
      {
        topic: 'orders',
        partitions: [{ partition: 0, currentLeaderEpoch: when(v, '2+', 12, -1), leaderEpoch: 9 }],
      },
    ],
  };
}

function offsetForLeaderEpochResponse(v: number): OffsetForLeaderEpochResponse {
  return {
    throttleTimeMs: when(v, '2+', 1, 0),
    topics: [
      {
        topic: 'orders',
        partitions: [
          { errorCode: 0, partition: 0, leaderEpoch: when(v, '1+', 9, -1), endOffset: 640n },
          { errorCode: 74, partition: 1, leaderEpoch: -1, endOffset: -1n }, // FENCED_LEADER_EPOCH
        ],
      },
    ],
  };
}

describe('OffsetForLeaderEpoch', () => {
  it.each(versionsOf(OffsetForLeaderEpoch))('round-trips a request and a response at v%i', (v) => {
    roundTrip(OffsetForLeaderEpoch, v, offsetForLeaderEpochRequest, offsetForLeaderEpochResponse);
  });

  it('writes the v3 request with the replica id first', () => {
    const bytes = encode(requestCodec(OffsetForLeaderEpoch, 3), {
      replicaId: -1,
      topics: [{ topic: 't', partitions: [{ partition: 0, currentLeaderEpoch: 5, leaderEpoch: 4 }] }],
    });
    expect(bytes.toString('hex')).toBe(hex('ffffffff 00000001 0001 74 00000001 00000000 00000005 00000004'));
  });
});
