/**
 * The kafkajs-compatible assignor against kafkajs 2.2.4 itself (its RoundRobinAssigner and AssignerProtocol
 * from node_modules): the same deal for the same group, and each side decodes the other's bytes.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { KafkajsRoundRobinAssignor } from '../../../../src/consumer/assignors/index.js';
import {
  decodeAssignment,
  decodeSubscription,
  encodeAssignment,
  encodeSubscription,
} from '../../../../src/consumer/group/classic/consumer-protocol-codec.js';
import { joinGroupProtocols } from '../../../../src/consumer/group/classic/rebalance-protocol.js';
import { m, run } from './helpers.js';

const require = createRequire(import.meta.url);
const { AssignerProtocol, PartitionAssigners } = require('kafkajs') as {
  AssignerProtocol: {
    MemberMetadata: {
      encode(v: { version: number; topics: string[]; userData?: Buffer }): Buffer;
      decode(b: Buffer): { version: number; topics: string[]; userData: Buffer | null };
    };
    MemberAssignment: {
      encode(v: { version: number; assignment: Record<string, number[]>; userData?: Buffer }): Buffer;
      decode(b: Buffer): { version: number; assignment: Record<string, number[]>; userData: Buffer | null } | null;
    };
  };
  PartitionAssigners: { roundRobin: (c: { cluster: unknown }) => KafkajsAssigner };
};
interface KafkajsAssigner {
  name: string;
  assign(g: {
    members: { memberId: string }[];
    topics: string[];
  }): Promise<{ memberId: string; memberAssignment: Buffer }[]>;
  protocol(s: { topics: string[] }): { name: string; metadata: Buffer };
}

/** kafkajs's assigner over a cluster that knows `partitions` per topic. */
function kafkajsAssigner(partitions: Record<string, number>): KafkajsAssigner {
  const cluster = {
    findTopicPartitionMetadata: (topic: string) =>
      Array.from({ length: partitions[topic] ?? 0 }, (_, partitionId) => ({ partitionId })),
  };
  return PartitionAssigners.roundRobin({ cluster });
}

describe('KafkajsRoundRobinAssignor', () => {
  const assignor = new KafkajsRoundRobinAssignor();

  it("is named as kafkajs's protocol, eager", () => {
    const kafkajs = kafkajsAssigner({});
    expect(assignor.name).toBe(kafkajs.name);
    expect(assignor.protocols).toEqual(['eager']);
  });

  it('deals exactly as a kafkajs leader does for members with the same subscription', async () => {
    const partitions = { orders: 7, payments: 3 };
    const ids = ['m-c', 'm-a', 'kafkajs-9f', 'm-b', 'Z'];
    const kafkajs = await kafkajsAssigner(partitions).assign({
      members: ids.map((memberId) => ({ memberId })),
      topics: ['orders', 'payments'],
    });
    const theirs: Record<string, string[]> = Object.fromEntries(ids.map((id) => [id, []]));
    for (const { memberId, memberAssignment } of kafkajs) {
      const decoded = decodeAssignment(memberAssignment);
      theirs[memberId] = decoded.partitions.map((p) => `${p.topic}-${p.partition}`);
    }
    const ours = run(
      assignor,
      ids.map((id) => m(id, ['orders', 'payments'])),
      partitions,
    );
    expect(ours).toEqual(theirs);
    expect(Object.values(ours).flat()).toHaveLength(10);
  });

  it('skips a member for a topic it does not subscribe to (kafkajs would hand it over anyway)', () => {
    expect(run(assignor, [m('a', ['t0']), m('b', ['t0', 't1'])], { t0: 2, t1: 2 })).toEqual({
      a: ['t0-0'],
      b: ['t0-1', 't1-0', 't1-1'],
    });
  });

  it("reads kafkajs's member metadata, and kafkajs reads ours", () => {
    const theirs = kafkajsAssigner({}).protocol({ topics: ['t1', 't0'] });
    expect(decodeSubscription(theirs.metadata)).toMatchObject({ topics: ['t1', 't0'], ownedPartitions: [] });
    const [ours] = joinGroupProtocols([assignor], { topics: ['t0', 't1'], owned: [], generationId: 4, rackId: 'r1' });
    expect(ours.name).toBe('RoundRobinAssigner');
    const decoded = AssignerProtocol.MemberMetadata.decode(ours.metadata);
    expect(decoded.topics).toEqual(['t0', 't1']);
    expect(decoded.userData).toEqual(Buffer.alloc(0));
    // And a kafkajs-shaped subscription (v0) round-trips through our codec unchanged.
    const v0 = encodeSubscription(
      { topics: ['t0'], userData: new Uint8Array(0), ownedPartitions: [], generationId: -1, rackId: null },
      0,
    );
    expect(v0).toEqual(AssignerProtocol.MemberMetadata.encode({ version: 0, topics: ['t0'] }));
  });

  it("reads kafkajs's assignments, and kafkajs reads ours", () => {
    const theirs = AssignerProtocol.MemberAssignment.encode({ version: 0, assignment: { t0: [2, 0], t1: [1] } });
    expect(decodeAssignment(theirs).partitions).toEqual([
      { topic: 't0', partition: 0 },
      { topic: 't0', partition: 2 },
      { topic: 't1', partition: 1 },
    ]);
    const share = assignor.assign(
      [m('a', ['t0', 't1'])],
      new Map([
        ['t0', { partitions: 2 }],
        ['t1', { partitions: 1 }],
      ]),
    );
    const bytes = encodeAssignment({
      partitions: share
        .get('a')!
        .partitions.flatMap((t) => t.partitions.map((partition) => ({ topic: t.topic, partition }))),
      userData: share.get('a')!.userData ?? null,
    });
    expect(AssignerProtocol.MemberAssignment.decode(bytes)?.assignment).toEqual({ t0: [0, 1], t1: [0] });
    // A member a kafkajs leader leaves out gets empty bytes: no partitions.
    expect(decodeAssignment(new Uint8Array(0)).partitions).toEqual([]);
  });
});
