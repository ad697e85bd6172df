import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupNotEmptyError, NoCommittedOffsetError } from '../../../src/admin/group-errors.js';
import type { ResetOffsetsOptions, ResetTarget } from '../../../src/admin/reset-offsets.js';
import type { Client } from '../../../src/client.js';
import { consumerGroupCommand, JavaClients } from './java-helper.js';
import { deleteRecordsBefore, newClient, newTopic, offsetMap, targets, uniqueGroup } from './setup.js';

let java: JavaClients;
beforeAll(async () => {
  java = await JavaClients.start();
}, 120_000);
afterAll(async () => {
  await java?.close();
});

describe.each(targets())('group offset reset against $label', (target) => {
  let client: Client;
  let topic: string;
  let other: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'reset', 2);
    other = await newTopic(client, 'reset-other', 1);
    // Partition 0: 10 records at 10 000, 10 100, … 10 900; partition 1: 4 records at 20 000…
    const records = [
      ...Array.from({ length: 10 }, (_, i) => ({ partition: 0, timestamp: 10_000 + 100 * i })),
      ...Array.from({ length: 4 }, (_, i) => ({ partition: 1, timestamp: 20_000 + 100 * i })),
    ];
    await java.produce(target.bootstrap, topic, records);
    await java.produce(target.bootstrap, other, [{ partition: 0 }, { partition: 0 }]);
    // The log of partition 0 now starts at 2, so resets below it are clamped there.
    await deleteRecordsBefore(client, topic, 0, 2n);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('refuses to reset a group with live members, as Kafka itself does, and changes nothing', async () => {
    const group = uniqueGroup('reset-live');
    await client.offsets.commit(group, [{ topic, partition: 0, offset: 5n }]);
    const member = `member-${group}`;
    try {
      await java.join(target.bootstrap, group, topic, member);
      for (const dryRun of [false, true]) {
        const err = await client.groups.resetOffsets(group, 'earliest', { topics: [topic], dryRun }).catch((e) => e);
        expect(err).toBeInstanceOf(GroupNotEmptyError);
        expect(err).toMatchObject({ groupId: group, state: 'Stable', memberCount: 1 });
        expect(err.message).toContain('can only be changed while it is inactive');
      }
      // Kafka's own tool refuses the same group.
      const tool = await consumerGroupCommand([
        '--bootstrap-server',
        target.bootstrap,
        '--reset-offsets',
        '--group',
        group,
        '--topic',
        topic,
        '--to-earliest',
        '--execute',
      ]);
      expect(`${tool.stdout}${tool.stderr}`).toMatch(/inactive/);
      expect(offsetMap(await client.offsets.committed(group))).toEqual({ [`${topic}-0`]: '5' });
    } finally {
      await java.leave(member);
    }
  });

  it.runIf(target.major >= 4)('refuses a KIP-848 consumer group with live members', async () => {
    const group = uniqueGroup('reset-848');
    const member = `member-${group}`;
    try {
      await java.join(target.bootstrap, group, topic, member, { protocol: 'consumer' });
      const err = await client.groups.resetOffsets(group, 'latest', { topics: [topic] }).catch((e) => e);
      expect(err).toBeInstanceOf(GroupNotEmptyError);
      expect(err.state).not.toBe('Empty');
    } finally {
      await java.leave(member);
    }
  });

  it('changes exactly what the dry run listed, for every kind of reset', async () => {
    const group = uniqueGroup('reset-empty');
    await client.offsets.commit(group, [
      { topic, partition: 0, offset: 5n },
      { topic, partition: 1, offset: 3n },
      { topic: other, partition: 0, offset: 1n },
    ]);
    const steps: [ResetTarget, ResetOffsetsOptions, Record<number, bigint>][] = [
      ['earliest', { topics: [topic] }, { 0: 2n, 1: 0n }],
      ['latest', { topics: [topic] }, { 0: 10n, 1: 4n }],
      // 10 450 falls between the records at offsets 4 and 5; partition 1's first record is later than that.
      [{ timestamp: 10_450 }, { topics: [topic] }, { 0: 5n, 1: 0n }],
      [{ timestamp: 30_000 }, { partitions: [{ topic, partition: 1 }] }, { 1: 4n }],
      [{ offset: 7n }, { topics: [topic] }, { 0: 7n, 1: 4n }],
      [{ shiftBy: -3 }, { topics: [topic] }, { 0: 4n, 1: 1n }],
      [{ shiftBy: -100n }, { partitions: [{ topic, partition: 0 }] }, { 0: 2n }],
      [{ offset: 0n }, { topics: [topic] }, { 0: 2n, 1: 0n }],
      [{ shiftBy: 1_000 }, { topics: [topic] }, { 0: 10n, 1: 4n }],
    ];
    for (const [resetTo, scope, expected] of steps) {
      const before = offsetMap(await client.offsets.committed(group));
      const dry = await client.groups.resetOffsets(group, resetTo, { ...scope, dryRun: true });
      expect(offsetMap(await client.offsets.committed(group))).toEqual(before);
      expect(dry.dryRun).toBe(true);
      expect(Object.fromEntries(dry.entries.map((e) => [e.partition, e.newOffset]))).toEqual(expected);
      for (const e of dry.entries) expect(e.currentOffset).toBe(BigInt(before[`${e.topic}-${e.partition}`]));

      const done = await client.groups.resetOffsets(group, resetTo, scope);
      expect(done.entries).toEqual(dry.entries);
      const after = offsetMap(await client.offsets.committed(group));
      const planned = Object.fromEntries(dry.entries.map((e) => [`${e.topic}-${e.partition}`, String(e.newOffset)]));
      expect(after).toEqual({ ...before, ...planned });
    }
    // Clamping is reported in the plan.
    const clamped = await client.groups.resetOffsets(group, { offset: 1_000n }, { topics: [topic], dryRun: true });
    expect(clamped.entries.map((e) => e.clamped)).toEqual(['latest', 'latest']);
    // Kafka's AdminClient sees the final state, the other topic untouched.
    expect(offsetMap(await java.listGroupOffsets(target.bootstrap, group))).toEqual({
      [`${topic}-0`]: '10',
      [`${topic}-1`]: '4',
      [`${other}-0`]: '1',
    });
  });

  it('resets every committed partition when no scope is given, and refuses to shift what was never committed', async () => {
    const group = uniqueGroup('reset-all');
    await client.offsets.commit(group, [
      { topic, partition: 1, offset: 3n },
      { topic: other, partition: 0, offset: 2n },
    ]);
    const plan = await client.groups.resetOffsets(group, 'earliest');
    expect(plan.entries.map((e) => [e.topic, e.partition, e.newOffset])).toEqual(
      [
        [topic, 1, 0n],
        [other, 0, 0n],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const err = await client.groups
      .resetOffsets(group, { shiftBy: 1 }, { partitions: [{ topic, partition: 0 }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(NoCommittedOffsetError);
  });

  it('exports committed offsets to JSON and imports them into another group', async () => {
    const source = uniqueGroup('export');
    await client.offsets.commit(source, [
      { topic, partition: 0, offset: 6n, leaderEpoch: 0, metadata: 'keep me' },
      { topic, partition: 1, offset: 2n },
    ]);
    const json = JSON.stringify(await client.groups.exportOffsets(source));
    expect(JSON.parse(json)).toMatchObject({ format: 'tidemark.group-offsets', version: 1, groupId: source });

    const copy = uniqueGroup('import');
    const dry = await client.groups.importOffsets(json, { groupId: copy, dryRun: true });
    expect(dry.entries.map((e) => e.newOffset)).toEqual([6n, 2n]);
    expect(await client.offsets.committed(copy)).toEqual([]);

    await client.groups.importOffsets(json, { groupId: copy });
    const imported = await java.listGroupOffsets(target.bootstrap, copy);
    expect(offsetMap(imported)).toEqual({ [`${topic}-0`]: '6', [`${topic}-1`]: '2' });
    const p0 = imported.find((o) => o.partition === 0)!;
    expect([p0.leaderEpoch, p0.metadata]).toEqual([0, 'keep me']);
  });
});
