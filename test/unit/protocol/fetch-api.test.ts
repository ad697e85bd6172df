/**
 * Fetch's definition: every version's request and response bytes (sessions, topic ids, diverging epochs,
 * aborted transactions) and what a malformed answer fails with.
 */
import { describe, expect, it } from 'vitest';
import { Reader } from '../../../codecs/reader.js';
import { Fetch, type FetchRequest, type FetchResponse } from '../../../protocol/apis/fetch.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';
import { inRange } from '../../../protocol/versions.js';
import { decodeError, encode, hex, ID_HEX, roundTrip, TOPIC_ID, versionsOf, when, ZERO_ID } from './helpers.js';

const INT64_MAX = 9223372036854775807n;
// Opaque here: the record-batch codec owns the contents.
const BATCH = Buffer.from('0000000000000000000000390000000002', 'hex');

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
