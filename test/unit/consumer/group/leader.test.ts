import { describe, expect, it } from 'vitest';
import type { ClusterMetadata } from '../../../../src/cluster/metadata.js';
import type { PartitionAssignor } from '../../../../src/consumer/assignors/assignor.js';
import { RangeAssignor } from '../../../../src/consumer/assignors/range.js';
import {
  decodeAssignment,
  encodeSubscription,
} from '../../../../src/consumer/group/classic/consumer-protocol-codec.js';
import { computeGroupAssignment, topicInfos } from '../../../../src/consumer/group/classic/leader.js';
import {
  chooseRebalanceProtocol,
  joinGroupProtocols,
} from '../../../../src/consumer/group/classic/rebalance-protocol.js';
import { resolveOptions } from '../../../../src/consumer/group/options.js';
import { fakeKafkaWith } from '../../../fake-kafka/cluster.js';
import { consumerView } from '../../../fake-kafka/views.js';

const cluster = consumerView(fakeKafkaWith({ a: 3, b: 2 }));
const metadata = (q: any) => cluster.metadata(q);
const member = (memberId: string, topics: string[], owned: Array<{ topic: string; partitions: number[] }> = []) => ({
  memberId,
  groupInstanceId: null,
  metadata: encodeSubscription({ topics, userData: null, ownedPartitions: owned, generationId: 1, rackId: null }),
});

describe('the classic leader', () => {
  it('assigns with the chosen assignor in JoinGroup order, and notes every subscribed topic’s partition count', async () => {
    const result = await computeGroupAssignment(
      new RangeAssignor(),
      'eager',
      [member('m1', ['a', 'b', 'missing']), member('m2', ['a'])],
      metadata,
    );
    const shares = new Map(result.assignments.map((a) => [a.memberId, decodeAssignment(a.assignment).partitions]));
    expect(shares.get('m1')).toEqual([
      { topic: 'a', partition: 0 },
      { topic: 'a', partition: 1 },
      { topic: 'b', partition: 0 },
      { topic: 'b', partition: 1 },
    ]);
    expect(shares.get('m2')).toEqual([{ topic: 'a', partition: 2 }]);
    expect(result.snapshot).toEqual(
      new Map([
        ['a', 3],
        ['b', 2],
        ['missing', 0],
      ]),
    );
  });

  it('sends no assignment when told to skip it (a static leader rejoining)', async () => {
    const result = await computeGroupAssignment(new RangeAssignor(), 'eager', [member('m1', ['a'])], metadata, true);
    expect(result.assignments).toEqual([]);
    expect(result.snapshot.get('a')).toBe(3);
  });

  it('refuses a cooperative assignment that moves a partition from one member to another in one step', async () => {
    const greedy: PartitionAssignor = {
      name: 'greedy',
      protocols: ['cooperative'],
      assign: (members) =>
        new Map(
          members.map((m, i) => [m.memberId, { partitions: i === 0 ? [{ topic: 'b', partitions: [0, 1] }] : [] }]),
        ),
    };
    const members = [member('m1', ['b']), member('m2', ['b'], [{ topic: 'b', partitions: [1] }])];
    await expect(computeGroupAssignment(greedy, 'cooperative', members, metadata)).rejects.toThrow(/cooperative/);
    await expect(computeGroupAssignment(greedy, 'eager', members, metadata)).resolves.toBeDefined();
  });

  it('gives partitions the racks of their replicas when brokers have racks', async () => {
    const md = (await cluster.metadata({ topics: ['b'] })) as ClusterMetadata;
    expect(topicInfos(md, ['b']).get('b')).toEqual({ partitions: 2 });
    md.brokers.set(1, { nodeId: 1, host: 'h', port: 1, rack: 'r1' });
    expect(topicInfos(md, ['b']).get('b')).toEqual({ partitions: 2, partitionRacks: [['r1'], ['r1']] });
  });

  it('follows Java’s choice of rebalance protocol and lists the protocols in preference order', () => {
    const both = resolveOptions({ groupId: 'g', assignors: ['range', 'cooperative-sticky'] }).assignors;
    const coop = resolveOptions({ groupId: 'g', assignors: ['cooperative-sticky'] }).assignors;
    expect(chooseRebalanceProtocol(both)).toBe('eager');
    expect(chooseRebalanceProtocol(coop)).toBe('cooperative');
    const protocols = joinGroupProtocols(both, { topics: ['a'], owned: [], generationId: -1, rackId: 'r' });
    expect(protocols.map((p) => p.name)).toEqual(['range', 'cooperative-sticky']);
  });
});
