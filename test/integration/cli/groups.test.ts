import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { bootstrap, legacyBootstrap } from '../../harness/context.js';
import { waitForSettledKip848Member } from '../admin/setup.js';
import { describeWithKafkaTool, JavaClients } from '../offsets/java-helper.js';
import { cli, newClient, newTopic, tableRows, uniqueGroup } from './setup.js';

let java: JavaClients;
beforeAll(async () => {
  java = await JavaClients.start();
}, 120_000);
afterAll(async () => {
  await java?.close();
});

const targets = [
  { label: 'Kafka 4.x', at: () => bootstrap() },
  ...(legacyBootstrap() === null ? [] : [{ label: 'Kafka 3.9', at: () => legacyBootstrap() as string }]),
];

describe.each(targets)('tidemark describe / groups against $label', ({ at }) => {
  let client: Client;
  let topic: string;
  let group: string;

  beforeAll(async () => {
    client = newClient(at());
    topic = await newTopic(client, 'describe', 3);
    // 5 records in partition 0, 3 in partition 1, none in partition 2.
    await java.produce(
      at(),
      topic,
      [0, 0, 0, 0, 0, 1, 1, 1].map((partition) => ({ partition })),
    );
    group = uniqueGroup('describe');
    await client.offsets.commit(group, [
      { topic, partition: 0, offset: 2n },
      { topic, partition: 1, offset: 3n },
      { topic, partition: 2, offset: 0n },
    ]);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("shows the same committed offsets, log end offsets and lag as Kafka's kafka-consumer-groups --describe", async () => {
    const tool = await describeWithKafkaTool(at(), group);
    expect(tool).toHaveLength(3);
    const theirs = tool
      .map((r) => [r.topic, String(r.partition), r.currentOffset, r.logEndOffset, r.lag])
      .sort((a, b) => Number(a[1]) - Number(b[1]));

    const text = await cli(['describe', group], { bootstrap: at() });
    expect(text.code).toBe(0);
    expect(text.stderr).toBe('');
    const ours = tableRows(text.stdout, topic).map((cells) => cells.slice(0, 5));
    expect(ours).toEqual(theirs);
    expect(theirs).toEqual([
      [topic, '0', '2', '5', '3'],
      [topic, '1', '3', '3', '0'],
      [topic, '2', '0', '0', '0'],
    ]);
    expect(text.stdout).toContain(`Group ${group}: Empty`);
    expect(text.stdout).toContain('total lag 3 over 3 partitions');

    const json = await cli(['describe', group, '--json'], { bootstrap: at() });
    const doc = JSON.parse(json.stdout);
    expect(
      doc.partitions.map((p: Record<string, unknown>) => [
        p.topic,
        String(p.partition),
        String(p.committedOffset),
        String(p.logEndOffset),
        String(p.lag),
      ]),
    ).toEqual(theirs);
    expect(doc.totalLag).toBe(3);
  });

  it('lists the group with its state and protocol', async () => {
    const json = await cli(['groups', '--json'], { bootstrap: at() });
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout).find((g: { groupId: string }) => g.groupId === group);
    expect(listed).toMatchObject({ groupId: group, state: 'Empty', protocolType: '' });

    const text = await cli(['groups'], { bootstrap: at() });
    expect(text.stdout.split('\n')[0]).toMatch(/^GROUP\s+STATE\s+TYPE\s+PROTOCOL\s+COORDINATOR$/);
    expect(tableRows(text.stdout, group)[0].slice(0, 2)).toEqual([group, 'Empty']);

    const filtered = await cli(['groups', '--state', 'Stable', '--json'], { bootstrap: at() });
    expect(JSON.parse(filtered.stdout).some((g: { groupId: string }) => g.groupId === group)).toBe(false);
  });

  it('shows live members and their assignment as kafka-consumer-groups does; changes are refused (exit 5)', async () => {
    const live = uniqueGroup('live');
    const member = `${live}-m1`;
    await java.join(at(), live, topic, member, { clientId: 'cli-java-member' });
    try {
      const text = await cli(['describe', live], { bootstrap: at() });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(new RegExp(`Group ${live}: Stable, classic protocol consumer/\\w+, 1 member`));
      expect(text.stdout).toContain(`cli-java-member`);
      expect(text.stdout).toContain(`${topic}: 0,1,2`);
      const tool = await describeWithKafkaTool(at(), live);
      const ours = tableRows(text.stdout, topic);
      expect(ours.map((c) => [c[1], c[5], c[7]])).toEqual(
        tool.sort((a, b) => a.partition - b.partition).map((r) => [String(r.partition), r.consumerId, r.clientId]),
      );

      const reset = await cli(['offsets', 'reset', live, '--topic', topic, '--to', 'earliest'], { bootstrap: at() });
      expect(reset.code).toBe(5);
      expect(reset.stderr).toMatch(
        /^tidemark: the offsets of group ".*" can only be changed while it is inactive.*\n$/,
      );

      const del = await cli(['offsets', 'delete', live, '--topic', topic], { bootstrap: at() });
      expect(del.code).toBe(5);
      expect(del.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await java.leave(member);
    }
  });

  it('exits 3 with one line for an unknown group', async () => {
    const r = await cli(['describe', uniqueGroup('nope')], { bootstrap: at() });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^tidemark: group ".*" does not exist\n$/);
    expect(r.stdout).toBe('');
  });
});

describe('tidemark describe of a live KIP-848 group (Kafka 4.x)', () => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(bootstrap());
    topic = await newTopic(client, 'describe-848', 3);
    // Records in partitions 0 and 1, none in 2; the member commits nothing.
    await java.produce(
      bootstrap(),
      topic,
      [0, 0, 0, 1].map((partition) => ({ partition })),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it('shows consumer id, host, client id, assignor and uncommitted assigned partitions as kafka-consumer-groups does', async () => {
    const group = uniqueGroup('kip848');
    const member = `${group}-m1`;
    await java.join(bootstrap(), group, topic, member, { protocol: 'consumer', clientId: 'cli-848-member' });
    try {
      await waitForSettledKip848Member(client, group, 3);
      const tool = await describeWithKafkaTool(bootstrap(), group);
      const theirs = tool
        .sort((a, b) => a.partition - b.partition)
        .map((r) => [
          r.topic,
          String(r.partition),
          r.currentOffset,
          r.logEndOffset,
          r.lag,
          r.consumerId,
          r.host,
          r.clientId,
        ]);
      expect(theirs).toHaveLength(3);
      expect(theirs.map((r) => [r[2], r[3], r[4], r[7]])).toEqual([
        ['-', '3', '-', 'cli-848-member'],
        ['-', '1', '-', 'cli-848-member'],
        ['-', '0', '-', 'cli-848-member'],
      ]);

      const text = await cli(['describe', group], { bootstrap: bootstrap() });
      expect(text.code).toBe(0);
      expect(text.stderr).toBe('');
      expect(tableRows(text.stdout, topic)).toEqual(theirs);
      expect(text.stdout).toMatch(
        new RegExp(`Group ${group}: Stable, consumer protocol consumer/uniform, 1 member, coordinator \\d+`),
      );
      expect(text.stdout).not.toContain('members unknown');

      const json = JSON.parse((await cli(['describe', group, '--json'], { bootstrap: bootstrap() })).stdout);
      expect(json.group).toMatchObject({ type: 'consumer', assignor: 'uniform' });
      expect(json.group.members[0]).toMatchObject({ clientId: 'cli-848-member', memberId: theirs[0][5] });
      expect(json.group.members[0].targetAssignment).toEqual(json.group.members[0].assignment);
    } finally {
      await java.leave(member);
    }
  });
});
