import type { AssignorMember } from '../../../src/consumer/assignors/index.js';
import { encodeCooperativeUserData, encodeStickyUserData } from '../../../src/consumer/assignors/index.js';
import type { Case } from './generate.js';
import type { OracleTopic } from './oracle.js';

/**
 * Hand-picked inputs at the edges of Kafka's assignors, compared with Kafka
 * like the random ones (for every assignor).
 */

const topic = (name: string, partitions: number, racks: OracleTopic['racks'] = null): OracleTopic => ({
  name,
  partitions,
  racks,
});

const member = (memberId: string, topics: string[], extra: Partial<AssignorMember> = {}): AssignorMember => ({
  memberId,
  topics,
  ...extra,
});

/** Owned partitions, and the same as sticky userData / cooperative fields, at a generation. */
function owning(owned: Array<[string, number[]]>, generation: number): Partial<AssignorMember> {
  const partitions = owned.flatMap(([t, ps]) => ps.map((partition) => ({ topic: t, partition })));
  return {
    ownedPartitions: owned.map(([t, ps]) => ({ topic: t, partitions: ps })),
    generationId: generation,
    userData: Buffer.concat([encodeStickyUserData({ partitions, generation }), encodeCooperativeUserData(generation)]),
  };
}

const racks = (...perPartition: Array<Array<string | null>>) => perPartition;

export const EDGE_CASES: Record<string, Case> = {
  'no members': { topics: [topic('t0', 3)], members: [] },
  'one member, many topics': {
    topics: [topic('t0', 3), topic('t1', 1), topic('t2', 7)],
    members: [member('solo', ['t2', 't0', 't1'])],
  },
  'more members than partitions': {
    topics: [topic('t0', 2)],
    members: ['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => member(id, ['t0'])),
  },
  'subscribed topics missing from metadata or without partitions': {
    topics: [topic('t0', 2), topic('empty', 0)],
    members: [member('a', ['t0', 'ghost', 'empty']), member('b', ['ghost']), member('c', ['t0', 'empty'])],
  },
  // "Aa" and "BB" hash alike: these ids share a HashMap bucket, so JoinGroup order decides
  // which two of the three full owners keep their second partition in the sticky assignors.
  'colliding member ids, one order': {
    topics: [topic('t0', 6)],
    members: [
      member('AaBB', ['t0'], owning([['t0', [0, 1]]], 3)),
      member('BBAa', ['t0'], owning([['t0', [2, 3]]], 3)),
      member('AaAa', ['t0'], owning([['t0', [4, 5]]], 3)),
      member('BBBB', ['t0']),
    ],
  },
  'colliding member ids, the other order': {
    topics: [topic('t0', 6)],
    members: [
      member('AaAa', ['t0'], owning([['t0', [4, 5]]], 3)),
      member('BBAa', ['t0'], owning([['t0', [2, 3]]], 3)),
      member('AaBB', ['t0'], owning([['t0', [0, 1]]], 3)),
      member('BBBB', ['t0']),
    ],
  },
  'static members sort by instance id before dynamic ones': {
    topics: [topic('t0', 7), topic('t1', 4)],
    members: [
      member('z-dynamic', ['t0', 't1']),
      member('a-static', ['t0', 't1'], { groupInstanceId: 'zz' }),
      member('m-static', ['t0', 't1'], { groupInstanceId: 'aa' }),
      member('b-dynamic', ['t0', 't1']),
    ],
  },
  // Kafka takes the first non-empty subscription as the reference, so this looks "all equal".
  'a member subscribed to nothing comes first': {
    topics: [topic('t0', 6)],
    members: [member('a', []), member('b', ['t0']), member('c', ['t0'])],
  },
  'every member subscribed to nothing': {
    topics: [topic('t0', 3)],
    members: [member('a', []), member('b', [])],
  },
  'racks: partitions on all racks (rack-aware assignment off)': {
    topics: [topic('t0', 4, racks(['a', 'b'], ['b', 'a'], ['a', 'b'], ['a', 'b']))],
    members: [member('c1', ['t0'], { rackId: 'a' }), member('c2', ['t0'], { rackId: 'b' })],
  },
  'racks: each partition on one rack, co-partitioned topics': {
    topics: [topic('t0', 4, racks(['a'], ['b'], ['c'], ['a'])), topic('t1', 4, racks(['a'], ['b'], ['c'], ['a']))],
    members: [
      member('c1', ['t0', 't1'], { rackId: 'c' }),
      member('c2', ['t0', 't1'], { rackId: 'a' }),
      member('c3', ['t0', 't1'], { rackId: 'b' }),
    ],
  },
  'racks: empty rack id, racks nobody has, brokers without racks': {
    topics: [topic('t0', 5, racks(['a', null], [null], [], ['x'], ['b']))],
    members: [
      member('c1', ['t0'], { rackId: '' }),
      member('c2', ['t0'], { rackId: 'b' }),
      member('c3', ['t0'], { rackId: 'z' }),
    ],
  },
  'racks: owned partitions on the wrong rack move': {
    topics: [topic('t0', 4, racks(['a'], ['a'], ['b'], ['b']))],
    members: [
      member('c1', ['t0'], { rackId: 'a', ...owning([['t0', [2, 3]]], 5) }),
      member('c2', ['t0'], { rackId: 'b', ...owning([['t0', [0, 1]]], 5) }),
    ],
  },
  'a partition claimed twice in one generation': {
    topics: [topic('t0', 4)],
    members: [
      member('c1', ['t0'], owning([['t0', [0, 1]]], 4)),
      member('c2', ['t0'], owning([['t0', [1, 2]]], 4)),
      member('c3', ['t0'], owning([['t0', [3]]], 4)),
    ],
  },
  'claims from an older generation lose': {
    topics: [topic('t0', 4), topic('t1', 2)],
    members: [
      member('c1', ['t0', 't1'], owning([['t0', [0, 1, 2, 3]]], 2)),
      member('c2', ['t0'], owning([['t0', [0, 1]]], 3)),
      member('c3', ['t0', 't1'], owning([['t1', [0, 1]]], 3)),
    ],
  },
  'a member left and a member joined': {
    topics: [topic('t0', 6), topic('t1', 3)],
    members: [
      member('stays', ['t0', 't1'], owning([['t0', [0, 1, 2]]], 9)),
      member('new', ['t0', 't1']),
      member('also-stays', ['t0'], owning([['t0', [3, 4, 5]]], 9)),
    ],
  },
};
