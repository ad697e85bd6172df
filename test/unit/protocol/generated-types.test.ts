import { describe, expect, expectTypeOf, it } from 'vitest';
import type { GeneratedMessageTypes } from '../../../protocol/generated/index.js';
import type {
  ApiVersions,
  ConsumerGroupHeartbeat,
  CreateTopics,
  DeleteGroups,
  DeleteRecords,
  DeleteTopics,
  DescribeGroups,
  Fetch,
  FindCoordinator,
  Heartbeat,
  InitProducerId,
  JoinGroup,
  LeaveGroup,
  ListGroups,
  ListOffsets,
  Metadata,
  OffsetCommit,
  OffsetDelete,
  OffsetFetch,
  OffsetForLeaderEpoch,
  Produce,
  SaslAuthenticate,
  SaslHandshake,
  SyncGroup,
} from '../../../protocol/index.js';
import type { ApiDef, Field, RequestInput, RequestOf, ResponseOf } from '../../../protocol/schema.js';

/**
 * `RequestOf`/`ResponseOf` resolve to the generated interfaces (which carry each field's `doc` as hover text) only
 * while those are the very types the definition infers; otherwise they fall back silently to the inferred types and
 * the hover text is lost. These checks run in `npm run typecheck`: a generator that writes a type the definition
 * does not infer, or a stale generation, fails them.
 */

/** Identity, not mere mutual assignability: a structurally equal intersection type is not the interface. */
type Identical<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type Documented<A> =
  A extends ApiDef<readonly Field[], readonly Field[], infer N>
    ? `${N}Request` extends keyof GeneratedMessageTypes
      ? `${N}Response` extends keyof GeneratedMessageTypes
        ? [
            Identical<RequestOf<A>, GeneratedMessageTypes[`${N}Request`]>,
            Identical<ResponseOf<A>, GeneratedMessageTypes[`${N}Response`]>,
          ]
        : ['no generated response type']
      : ['no generated request type']
    : ['not an API'];

type Apis = [
  typeof ApiVersions,
  typeof ConsumerGroupHeartbeat,
  typeof CreateTopics,
  typeof DeleteGroups,
  typeof DeleteRecords,
  typeof DeleteTopics,
  typeof DescribeGroups,
  typeof Fetch,
  typeof FindCoordinator,
  typeof Heartbeat,
  typeof InitProducerId,
  typeof JoinGroup,
  typeof LeaveGroup,
  typeof ListGroups,
  typeof ListOffsets,
  typeof Metadata,
  typeof OffsetCommit,
  typeof OffsetDelete,
  typeof OffsetFetch,
  typeof OffsetForLeaderEpoch,
  typeof Produce,
  typeof SaslAuthenticate,
  typeof SaslHandshake,
  typeof SyncGroup,
];

describe('generated value types', () => {
  it('are what RequestOf and ResponseOf resolve to, for every API', () => {
    // Distributes over the APIs: any one that falls back adds a `false` to the union.
    expectTypeOf<Documented<Apis[number]>>().toEqualTypeOf<[true, true]>();
    expect(true).toBe(true);
  });

  it('give request inputs optional fields and any Uint8Array for bytes, keeping the field docs', () => {
    expectTypeOf<RequestInput<typeof Produce>>()
      .toHaveProperty('transactionalId')
      .toEqualTypeOf<string | null | undefined>();
    type Partition = NonNullable<
      NonNullable<RequestInput<typeof Produce>['topicData']>[number]['partitionData']
    >[number];
    expectTypeOf<Partition['records']>().toEqualTypeOf<Uint8Array | null | undefined>();
    expect(true).toBe(true);
  });
});
