import { describe, expect, it } from 'vitest';
import { newMemberId } from '../../../../src/consumer/group/kip848/consumer-membership.js';
import { HeartbeatRequestBuilder } from '../../../../src/consumer/group/kip848/heartbeat-request.js';
import { OwnedByTopicId, planReconciliation } from '../../../../src/consumer/group/kip848/reconciliation.js';
import { testOptions } from './group-kit.js';

describe('KIP-848 heartbeat requests', () => {
  it('send every field when joining, then only what changed, and everything again after a reset', () => {
    const builder = new HeartbeatRequestBuilder(testOptions({ protocol: 'consumer', serverAssignor: 'range' }));
    const member = { memberId: 'm', memberEpoch: 0, topics: ['a'], owned: [] };
    expect(builder.build(member)).toMatchObject({
      subscribedTopicNames: ['a'],
      serverAssignor: 'range',
      topicPartitions: [],
    });
    const steady = builder.build({ ...member, memberEpoch: 3 });
    expect(steady).toMatchObject({
      memberEpoch: 3,
      subscribedTopicNames: null,
      serverAssignor: null,
      topicPartitions: null,
      rebalanceTimeoutMs: -1,
    });
    const ack = builder.build({ ...member, memberEpoch: 3, owned: [{ topicId: 'x', partitions: [1] }] });
    expect(ack.topicPartitions).toEqual([{ topicId: 'x', partitions: [1] }]);
    expect(
      builder.build({ ...member, memberEpoch: 3, topics: ['a', 'b'], owned: [{ topicId: 'x', partitions: [1] }] }),
    ).toMatchObject({
      subscribedTopicNames: ['a', 'b'],
      topicPartitions: null,
    });
    builder.reset();
    expect(builder.build({ ...member, memberEpoch: 3 })).toMatchObject({
      subscribedTopicNames: ['a'],
      serverAssignor: 'range',
      topicPartitions: [],
    });
  });

  it('makes member ids as Java does: 22 url-safe base64 characters, never starting with "-"', () => {
    for (let i = 0; i < 200; i++) expect(newMemberId()).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});

describe('KIP-848 reconciliation', () => {
  it('revokes what the target leaves out, adds what is new, and leaves unresolved ids for later', () => {
    const owned = new OwnedByTopicId();
    owned.add('id-a', 'a', 0);
    owned.add('id-a', 'a', 1);
    const plan = planReconciliation(
      owned,
      [
        { topicId: 'id-a', partitions: [1, 2] },
        { topicId: 'id-unknown', partitions: [0] },
      ],
      new Map(),
    );
    expect(plan.revoked).toEqual([{ topic: 'a', partition: 0 }]);
    expect(plan.added).toEqual([{ topicId: 'id-a', topic: 'a', partition: 2 }]);
    expect(plan.unresolved).toEqual(['id-unknown']);
    owned.remove(plan.revoked);
    for (const p of plan.added) owned.add(p.topicId, p.topic, p.partition);
    expect(owned.toRequest()).toEqual([{ topicId: 'id-a', partitions: [1, 2] }]);
  });
});
