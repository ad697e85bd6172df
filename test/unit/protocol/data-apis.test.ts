import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import {
  DeleteRecords,
  type DeleteRecordsRequest,
  type DeleteRecordsResponse,
} from '../../../protocol/apis/delete-records.js';
import { Fetch, type FetchRequest, type FetchResponse } from '../../../protocol/apis/fetch.js';
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
import { decodeError, encode, hex, ID_HEX, roundTrip, TOPIC_ID, versionsOf, when, ZERO_ID } from './helpers.js';

const INT64_MAX = 9223372036854775807n;
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

// -------------------------------------------------------------------- Fetch

function fetchRequest(v: number): FetchRequest {
  const byId = inRange('13+', v);
  return {
    clusterId: null,
    replicaId: -1,
    replicaState: { replicaId: -1, replicaEpoch: -1n },
    maxWaitMs: 500,
    minBytes: 1,
    maxBytes: when(v, '3+', 52428800, 0x7fffffff),
    isolationLevel: when(v, '4+', 1, 0),
    sessionId: when(v, '7+', 1803, 0),
    sessionEpoch: when(v, '7+', 12, -1),
    topics: [
      {
        topic: byId ? '' : 'orders',
        topicId: byId ? TOPIC_ID : ZERO_ID,
        partitions: [
          {
            partition: 0,
            currentLeaderEpoch: when(v, '9+', 11, -1),
            fetchOffset: 81234n,
            lastFetchedEpoch: when(v, '12+', 10, -1),
            logStartOffset: -1n,
            partitionMaxBytes: 1048576,
            replicaDirectoryId: ZERO_ID,
            highWatermark: INT64_MAX,
          },
          {
            partition: 5,
            currentLeaderEpoch: -1,
            fetchOffset: 0n,
            lastFetchedEpoch: -1,
            logStartOffset: -1n,
            partitionMaxBytes: 1048576,
            replicaDirectoryId: ZERO_ID,
            highWatermark: INT64_MAX,
          },
        ],
      },
    ],
    forgottenTopicsData: when(
      v,
      '7+',
      [{ topic: byId ? '' : 'orders', topicId: byId ? TOPIC_ID : ZERO_ID, partitions: [2, 3] }],
      [],
    ),
    rackId: when(v, '11+', 'use1-az1', ''),
  };
}

function fetchResponse(v: number): FetchResponse {
  const byId = inRange('13+', v);
  const noLeader = { leaderId: -1, leaderEpoch: -1 };
  return {
    throttleTimeMs: when(v, '1+', 0, 0),
    errorCode: 0,
    sessionId: when(v, '7+', 1803, 0),
    responses: [
      {
        topic: byId ? '' : 'orders',
        topicId: byId ? TOPIC_ID : ZERO_ID,
        partitions: [
          {
            partitionIndex: 0,
            errorCode: 0,
            highWatermark: 90000n,
            lastStableOffset: when(v, '4+', 89990n, -1n),
            logStartOffset: when(v, '5+', 100n, -1n),
            divergingEpoch: { epoch: -1, endOffset: -1n },
            currentLeader: noLeader,
            snapshotId: { endOffset: -1n, epoch: -1 },
            abortedTransactions: when(v, '4+', [{ producerId: 4001n, firstOffset: 81300n }], []),
            preferredReadReplica: when(v, '11+', 3, -1),
            records: BATCH,
          },
          {
            partitionIndex: 5,
            errorCode: when(v, '12+', 0, 6), // NOT_LEADER_OR_FOLLOWER before v12
            highWatermark: 700n,
            lastStableOffset: when(v, '4+', 700n, -1n),
            logStartOffset: when(v, '5+', 0n, -1n),
            // v12+: the fetcher's log diverged; it must truncate to offset 640.
            divergingEpoch: when(v, '12+', { epoch: 9, endOffset: 640n }, { epoch: -1, endOffset: -1n }),
            currentLeader: when(v, '12+', { leaderId: 2, leaderEpoch: 12 }, noLeader),
            snapshotId: when(v, '12+', { endOffset: 600n, epoch: 8 }, { endOffset: -1n, epoch: -1 }),
            // Null on the wire from v4; absent before, which reads as empty.
            abortedTransactions: when(v, '4+', null, []),
            preferredReadReplica: -1,
            records: null,
          },
        ],
      },
    ],
    nodeEndpoints: when(v, '16+', [{ nodeId: 2, host: 'kafka-2.internal', port: 9093, rack: 'use1-az2' }], []),
  };
}

describe('Fetch', () => {
  it.each(versionsOf(Fetch))('round-trips a request and a response at v%i', (v) => {
    roundTrip(Fetch, v, fetchRequest, fetchResponse);
  });

  it('writes the v0 request: replica, wait, min bytes, then topics by name', () => {
    const bytes = encode(requestCodec(Fetch, 0), {
      replicaId: -1,
      maxWaitMs: 100,
      minBytes: 1,
      topics: [{ topic: 't', partitions: [{ partition: 2, fetchOffset: 5n, partitionMaxBytes: 1024 }] }],
    });
    expect(bytes.toString('hex')).toBe(
      hex('ffffffff 00000064 00000001 00000001 0001 74 00000001 00000002 0000000000000005 00000400'),
    );
  });

  it('writes the v13 request by topic id, with defaults filled in and the cluster id as tag 0', () => {
    const body = (tags: string) =>
      hex(`
        ffffffff 000001f4 00000001 7fffffff 01 00000000 ffffffff
        02 ${ID_HEX}
          02 00000000 00000005 0000000000000064 ffffffff ffffffffffffffff 00100000 00
          00
        01 01
        ${tags}
      `);
    const request = {
      maxWaitMs: 500,
      minBytes: 1,
      isolationLevel: 1,
      topics: [
        {
          topicId: TOPIC_ID,
          partitions: [{ partition: 0, currentLeaderEpoch: 5, fetchOffset: 100n, partitionMaxBytes: 1048576 }],
        },
      ],
    };
    const codec = requestCodec(Fetch, 13);
    expect(encode(codec, request).toString('hex')).toBe(body('00'));
    // 1 tagged field: tag 0, 2 bytes, compact string "c".
    const tagged = encode(codec, { ...request, clusterId: 'c' });
    expect(tagged.toString('hex')).toBe(body('01 00 02 0263'));
    expect(codec.decode(new Reader(tagged)).clusterId).toBe('c');
  });

  it('moves the replica id into the replicaState tag (1) from v15, next to the cluster id (0)', () => {
    const codec = requestCodec(Fetch, 15);
    const bytes = encode(codec, {
      clusterId: 'c',
      replicaState: { replicaId: 3, replicaEpoch: 7n },
      maxWaitMs: 0,
      minBytes: 0,
      topics: [],
    });
    expect(bytes.toString('hex')).toBe(
      hex(`
        00000000 00000000 7fffffff 00 00000000 ffffffff 01 01 01
        02 00 02 0263 01 0d 00000003 0000000000000007 00
      `),
    );
    expect(codec.decode(new Reader(bytes)).replicaState).toEqual({
      replicaId: 3,
      replicaEpoch: 7n,
      _unknownTaggedFields: undefined,
    });
    // A follower's replica id cannot be dropped silently: it changes what the broker does.
    expect(() => encode(codec, { replicaId: 3, topics: [] })).toThrow(/replicaId is not supported in version 15/);
  });

  it('writes the follower-only partition tags (directory id 0, high watermark 1) in v18', () => {
    const codec = requestCodec(Fetch, 18);
    const partition = { partition: 0, fetchOffset: 0n, partitionMaxBytes: 1, replicaDirectoryId: TOPIC_ID };
    const bytes = encode(codec, { topics: [{ topicId: ZERO_ID, partitions: [{ ...partition, highWatermark: 9n }] }] });
    const tags = hex(`02 00 10 ${ID_HEX} 01 08 0000000000000009`);
    expect(bytes.toString('hex')).toContain(tags);
    const back = codec.decode(new Reader(bytes)).topics[0].partitions[0];
    expect([back.replicaDirectoryId, back.highWatermark]).toEqual([TOPIC_ID, 9n]);
    // Absent, the high watermark reads as "unknown" (int64 max), not 0.
    const bare = codec.decode(new Reader(encode(codec, { topics: [{ topicId: ZERO_ID, partitions: [partition] }] })));
    expect(bare.topics[0].partitions[0].highWatermark).toBe(INT64_MAX);
  });

  it('switches from topic names to topic ids at v13, dropping whichever the version lacks', () => {
    const both = { topics: [{ topic: 'orders', topicId: TOPIC_ID, partitions: [] }] };
    const v12 = requestCodec(Fetch, 12);
    const v13 = requestCodec(Fetch, 13);
    const b12 = encode(v12, both);
    const b13 = encode(v13, both);
    expect(b12.toString('hex')).toContain(Buffer.from('\x07orders').toString('hex'));
    expect(b12.toString('hex')).not.toContain(ID_HEX);
    expect(b13.toString('hex')).toContain(ID_HEX);
    expect(b13.toString('hex')).not.toContain(Buffer.from('orders').toString('hex'));
    expect(v12.decode(new Reader(b12)).topics[0]).toMatchObject({ topic: 'orders', topicId: ZERO_ID });
    expect(v13.decode(new Reader(b13)).topics[0]).toMatchObject({ topic: '', topicId: TOPIC_ID });
    // The same switch in forgotten topics and in the response.
    const forgotten = encode(v13, {
      topics: [],
      forgottenTopicsData: [{ topic: 'x', topicId: TOPIC_ID, partitions: [1] }],
    });
    expect(forgotten.toString('hex')).toContain(hex(`02 ${ID_HEX} 02 00000001 00`));
    const res = encode(responseCodec(Fetch, 13), { responses: [{ topic: 'x', topicId: TOPIC_ID, partitions: [] }] });
    expect(res.toString('hex')).toBe(hex(`00000000 0000 00000000 02 ${ID_HEX} 01 00 00`));
  });

  it('refuses a last fetched epoch before v12 instead of losing divergence detection', () => {
    const request = { topics: [{ topic: 't', partitions: [{ partition: 0, fetchOffset: 1n, lastFetchedEpoch: 4 }] }] };
    expect(() => encode(requestCodec(Fetch, 11), request)).toThrow(/lastFetchedEpoch is not supported in version 11/);
    // Fields marked ignorable are dropped: a consumer can send one request shape to every broker.
    expect(() => encode(requestCodec(Fetch, 8), { rackId: 'az1', isolationLevel: 1, topics: [] })).not.toThrow();
  });

  it('reads the v12 partition tags in order: divergingEpoch 0, currentLeader 1, snapshotId 2', () => {
    // index | NOT_LEADER_OR_FOLLOWER | high watermark | last stable | log start |
    // aborted null | no preferred replica | records null | 3 tags: #0 13 bytes, #1 9 bytes, #2 13 bytes
    const partition = hex(`
      00000001 0006 0000000000000064 0000000000000064 0000000000000000
      00 ffffffff 00
      03 00 0d 00000007 0000000000000050 00
         01 09 00000002 00000008 00
         02 0d 0000000000000040 00000006 00
    `);
    const response = Buffer.from(hex(`00000000 0000 00000000 02 0274 02 ${partition} 00 00`), 'hex');
    const back = responseCodec(Fetch, 12).decode(new Reader(response));
    expect(back.responses[0].partitions[0]).toEqual({
      partitionIndex: 1,
      errorCode: 6,
      highWatermark: 100n,
      lastStableOffset: 100n,
      logStartOffset: 0n,
      divergingEpoch: { epoch: 7, endOffset: 80n, _unknownTaggedFields: undefined },
      currentLeader: { leaderId: 2, leaderEpoch: 8, _unknownTaggedFields: undefined },
      snapshotId: { endOffset: 64n, epoch: 6, _unknownTaggedFields: undefined },
      abortedTransactions: null,
      preferredReadReplica: -1,
      records: null,
      _unknownTaggedFields: undefined,
    });
    expect(back.responses[0].topic).toBe('t');
  });

  it('writes only the partition tags that differ from their defaults, and node endpoints from v16', () => {
    const partition = {
      partitionIndex: 0,
      highWatermark: 0n,
      records: null,
      currentLeader: { leaderId: 1, leaderEpoch: 2 },
    };
    const v16 = encode(responseCodec(Fetch, 16), {
      responses: [{ topicId: ZERO_ID, partitions: [partition] }],
      nodeEndpoints: [{ nodeId: 1, host: 'h', port: 9092, rack: null }],
    });
    // Absent values take their defaults: -1 offsets, an empty (not null) aborted list, no
    // preferred replica. One partition tag (#1, currentLeader); one root tag (#0, nodeEndpoints).
    expect(v16.toString('hex')).toBe(
      hex(`
        00000000 0000 00000000
        02 ${'00'.repeat(16)}
          02 00000000 0000 0000000000000000 ffffffffffffffff ffffffffffffffff 01 ffffffff 00
             01 01 09 00000001 00000002 00
          00
        01 00 0d 02 00000001 0268 00002384 00 00
      `),
    );
  });

  it('keeps records as a view into the response buffer', () => {
    const codec = responseCodec(Fetch, 12);
    const bytes = encode(codec, fetchResponse(12));
    const records = codec.decode(new Reader(bytes)).responses[0].partitions[0].records as Buffer;
    expect(records.buffer).toBe(bytes.buffer);
    expect(records).toEqual(BATCH);
  });

  it('reports a truncated response as a ProtocolError naming the nested field', () => {
    const codec = responseCodec(Fetch, 4);
    const bytes = encode(codec, fetchResponse(4));
    // Cut three bytes before the end of the first partition's records.
    const cut = bytes.indexOf(BATCH) + BATCH.length - 3;
    const err = decodeError(() => codec.decode(new Reader(bytes.subarray(0, cut))));
    expect(err.api).toBe('FetchResponse');
    expect(err.version).toBe(4);
    expect(err.field).toBe('responses.partitions.records');
    expect(err.message).toMatch(/FetchResponse v4, field responses\.partitions\.records/);
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
