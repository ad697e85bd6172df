import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { bootstrap, uniqueTopicName } from '../../harness/context.js';
import { JavaClients } from '../offsets/java-helper.js';
import { useJavaAdmin } from './java-admin.js';
import { newClient, newTopic, TARGETS, waitForSettledKip848Member } from './setup.js';

const javaAdmin = useJavaAdmin();
let javaClients: JavaClients;
beforeAll(async () => {
  javaClients = await JavaClients.start();
}, 120_000);
afterAll(async () => {
  await javaClients?.close();
});

interface JavaGroup {
  groupId: string;
  state: string;
  type: string;
  assignor: string;
  groupEpoch: number;
  targetAssignmentEpoch: number;
  coordinator: number;
  members: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    memberEpoch: number;
    assignment: string[];
    targetAssignment: string[];
  }[];
  authorizedOperations?: string[] | null;
}

// KIP-848 groups run on Kafka 4.x only (3.9 has them as an early-access preview, off in the test broker).
describe('describeGroups of a live KIP-848 group (ConsumerGroupDescribe), Kafka 4.x', () => {
  let client: Client;

  beforeAll(async () => {
    client = newClient(bootstrap());
  });
  afterAll(async () => {
    await client?.close();
  });

  it("equals Java AdminClient's describeConsumerGroups: members, assignments, target assignments, epochs", async () => {
    const topic = await newTopic(client, 'kip848', 2);
    const group = uniqueTopicName('admin-kip848');
    const member = `${group}-m1`;
    await javaClients.join(bootstrap(), group, topic, member, { protocol: 'consumer', clientId: 'admin-848' });
    try {
      await waitForSettledKip848Member(client, group, 2);
      const [ours] = await client.groups.describeGroups([group]);
      const theirs = await javaAdmin().call<JavaGroup>(bootstrap(), 'describeConsumerGroup', { group });
      const label = (tps: { topic: string; partition: number }[]) => tps.map((p) => `${p.topic}-${p.partition}`);
      expect({
        groupId: ours.groupId,
        state: ours.state,
        type: ours.type,
        assignor: ours.assignor,
        groupEpoch: ours.groupEpoch,
        targetAssignmentEpoch: ours.assignmentEpoch,
        coordinator: ours.coordinator,
        members: ours.members?.map((m) => ({
          memberId: m.memberId,
          groupInstanceId: m.groupInstanceId,
          clientId: m.clientId,
          clientHost: m.clientHost,
          memberEpoch: m.memberEpoch,
          assignment: label(m.assignment),
          targetAssignment: label(m.targetAssignment ?? []),
        })),
      }).toEqual({ ...theirs, type: theirs.type.toLowerCase() }); // Java's GroupType prints "Consumer"
      expect(theirs.assignor).toBe('uniform');
      expect(theirs.members[0].assignment).toEqual([`${topic}-0`, `${topic}-1`]);
    } finally {
      await javaClients.leave(member);
    }
  });

  it("includeAuthorizedOperations: what Java's describeConsumerGroups reports, absent unless asked", async () => {
    const topic = await newTopic(client, 'kip848-ops', 1);
    const group = uniqueTopicName('admin-kip848-ops');
    const member = `${group}-m1`;
    await javaClients.join(bootstrap(), group, topic, member, { protocol: 'consumer' });
    try {
      await waitForSettledKip848Member(client, group, 1);
      const [ours] = await client.groups.describeGroups([group], { includeAuthorizedOperations: true });
      const theirs = await javaAdmin().call<JavaGroup>(bootstrap(), 'describeConsumerGroup', {
        group,
        includeAuthorizedOperations: true,
      });
      expect(ours.type).toBe('consumer');
      expect(ours.authorizedOperations).toEqual(theirs.authorizedOperations);
      // No authorizer: every operation a group has.
      expect(ours.authorizedOperations).toEqual(
        ['DELETE', 'DESCRIBE', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS', 'READ'].sort(),
      );
      const [plain] = await client.groups.describeGroups([group]);
      expect(plain).not.toHaveProperty('authorizedOperations');
    } finally {
      await javaClients.leave(member);
    }
  });
});

for (const target of TARGETS) {
  describe(`describeGroups of a classic group with authorized operations (DescribeGroups), ${target.label}`, () => {
    it("equals Java's describeConsumerGroups(includeAuthorizedOperations)", async () => {
      const client = newClient(target.at());
      const topic = await newTopic(client, 'classic-ops', 1);
      const group = uniqueTopicName('admin-classic-ops');
      const member = `${group}-m1`;
      await javaClients.join(target.at(), group, topic, member, { protocol: 'classic' });
      try {
        const [ours] = await client.groups.describeGroups([group], { includeAuthorizedOperations: true });
        const theirs = await javaAdmin().call<JavaGroup>(target.at(), 'describeConsumerGroup', {
          group,
          includeAuthorizedOperations: true,
        });
        expect(ours.type).toBe('classic');
        expect(ours.authorizedOperations).toEqual(theirs.authorizedOperations);
        expect(ours.authorizedOperations).toContain('DESCRIBE');
      } finally {
        await javaClients.leave(member);
        await client.close();
      }
    });
  });
}
