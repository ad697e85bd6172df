/**
 * Rolling migration (issue 15, item 2): a group of kafkajs 2.2.4 members is replaced one by one by
 * tidemark/kafkajs members and by core Consumers with the KafkajsRoundRobinAssignor, while records keep
 * arriving. At every stable point the coordinator's view (DescribeGroups) and each member's own view agree,
 * every partition has exactly one owner, and the group runs kafkajs's protocol; kafkajs members are the
 * leader for tidemark followers and followers of a tidemark leader. At the end every produced record has been
 * consumed and the committed offsets are the log end offsets.
 */
import * as kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { Client, type Consumer as CoreConsumer, KafkajsRoundRobinAssignor } from '../../../src/index.js';
import * as facade from '../../../src/kafkajs/index.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { eventually } from '../../harness/eventually.js';

const PARTITIONS = 6;
const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

/** What the test needs of a member, whatever its kind. */
interface Member {
  label: string;
  memberId(): string | undefined;
  /** The partitions the member believes it owns, sorted. */
  owns(): number[] | undefined;
  /** From kafkajs members' GROUP_JOIN: whether they led the last generation, and who did. */
  lastJoin?: { isLeader: boolean; leaderId: string };
  stop(): Promise<void>;
}

type KafkaModule = typeof facade;
type JoinEvent = {
  payload: { memberId: string; isLeader: boolean; leaderId: string; memberAssignment: Record<string, number[]> };
};

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe.each(generations)('rolling migration from kafkajs on $label', ({ address }) => {
  it.skipIf(address === null)(
    'kafkajs members replaced one by one: one owner per partition, nothing lost',
    { timeout: 240_000 },
    async () => {
      const broker = address as string;
      const topic = uniqueTopicName('kjs-roll');
      const groupId = uniqueTopicName('kjs-roll-g');
      const client = new Client({ bootstrap: broker, requestTimeoutMs: 15_000 });
      await client.admin.createTopics([{ name: topic, numPartitions: PARTITIONS, replicationFactor: 1 }]);
      await eventually(() => client.offsets.latest(topic));
      const consumed = new Set<string>();
      const groupOptions = { groupId, heartbeatInterval: 300, sessionTimeout: 10_000, maxWaitTimeInMs: 200 };

      /** A kafkajs-API member: kafkajs 2.2.4 itself or tidemark/kafkajs. */
      const kafkajsApiMember = async (label: string, mod: KafkaModule): Promise<Member> => {
        const kafka = new mod.Kafka({ clientId: label, brokers: [broker], logLevel: mod.logLevel.NOTHING });
        const consumer = kafka.consumer(groupOptions);
        let id: string | undefined;
        let owns: number[] | undefined;
        const member: Member = { label, memberId: () => id, owns: () => owns, stop: () => consumer.disconnect() };
        consumer.on(consumer.events.GROUP_JOIN, (e) => {
          const { payload } = e as JoinEvent;
          id = payload.memberId;
          owns = sorted(payload.memberAssignment[topic] ?? []);
          member.lastJoin = { isLeader: payload.isLeader, leaderId: payload.leaderId };
        });
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => void consumed.add(String(message.value)),
        });
        return member;
      };

      /** A core Consumer offering kafkajs's protocol. */
      const coreMember = async (label: string): Promise<Member> => {
        const own = new Client({ bootstrap: broker, clientId: label });
        const consumer: CoreConsumer = own.consumer({
          groupId,
          autoOffsetReset: 'earliest',
          fetchMaxWaitMs: 200,
          group: { assignors: [new KafkajsRoundRobinAssignor()], heartbeatIntervalMs: 300, sessionTimeoutMs: 10_000 },
        });
        await consumer.subscribe({ topics: [topic] });
        const loop = (async () => {
          for await (const batch of consumer) for (const r of batch.records) consumed.add(String(r.value));
        })();
        return {
          label,
          memberId: () => consumer.groupMetadata().memberId || undefined,
          owns: () => sorted(consumer.assignment().map((p) => p.partition)),
          stop: async () => {
            await consumer.close();
            await loop;
            await own.close();
          },
        };
      };

      // Records keep arriving through the whole migration.
      const producerKafka = new facade.Kafka({ brokers: [broker], logLevel: facade.logLevel.NOTHING });
      const producer = producerKafka.producer();
      await producer.connect();
      let sent = 0;
      let producing = true;
      const production = (async () => {
        while (producing) {
          const messages = Array.from({ length: PARTITIONS }, (_, partition) => ({
            partition,
            value: `r${sent + partition}`,
          }));
          await producer.send({ topic, messages });
          sent += messages.length;
          await new Promise((r) => setTimeout(r, 50));
        }
      })();

      const live: Member[] = [];
      const stablePoints: string[] = [];
      /** Waits for a stable generation holding exactly the live members, then checks ownership. */
      const stable = async (what: string) => {
        const owners = await eventually(async () => {
          const [group] = await client.groups.describeGroups([groupId]);
          expect(group.state).toBe('Stable');
          expect(group.assignor).toBe('RoundRobinAssigner');
          const ids = live.map((m) => m.memberId());
          expect(new Set(group.members?.map((m) => m.memberId))).toEqual(new Set(ids));
          const byMember = new Map<string, number[]>();
          for (const m of live) {
            const described = group.members!.find((d) => d.memberId === m.memberId())!;
            const coordinatorView = sorted(
              described.assignment.filter((p) => p.topic === topic).map((p) => p.partition),
            );
            expect(m.owns(), `${m.label}'s own view`).toEqual(coordinatorView);
            byMember.set(m.label, coordinatorView);
          }
          return byMember;
        }, 60_000);
        const all = [...owners.values()].flat();
        expect(sorted(all), `${what}: every partition owned exactly once`).toEqual([...Array(PARTITIONS).keys()]);
        // Round robin: balanced within one.
        const counts = [...owners.values()].map((p) => p.length);
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
        stablePoints.push(`${what}: ${[...owners].map(([m, p]) => `${m}=${p.join(',')}`).join(' ')}`);
      };
      const start = async (m: Promise<Member>, what: string) => {
        live.push(await m);
        await stable(what);
      };
      const stop = async (label: string, what: string) => {
        const i = live.findIndex((m) => m.label === label);
        const [m] = live.splice(i, 1);
        await m.stop();
        await stable(what);
      };
      const byLabel = (label: string) => live.find((m) => m.label === label)!;

      try {
        await start(kafkajsApiMember('kafkajs-1', kafkajs as unknown as KafkaModule), 'kafkajs-1 alone');
        await start(kafkajsApiMember('kafkajs-2', kafkajs as unknown as KafkaModule), 'two kafkajs members');
        await start(kafkajsApiMember('facade-1', facade), 'facade-1 joins');
        // kafkajs-1 joined first and leads: a kafkajs leader dealt partitions to a tidemark follower.
        expect(byLabel('kafkajs-1').lastJoin?.isLeader).toBe(true);
        expect(byLabel('kafkajs-2').lastJoin?.leaderId).toBe(byLabel('kafkajs-1').memberId());
        await stop('kafkajs-1', 'kafkajs-1 left');
        await start(coreMember('core-1'), 'core-1 joins');
        await stop('kafkajs-2', 'kafkajs-2 left: tidemark only');
        // Only tidemark members remain, so one of them leads; a kafkajs member now joins as its follower.
        await start(
          kafkajsApiMember('kafkajs-3', kafkajs as unknown as KafkaModule),
          'kafkajs-3 joins a tidemark leader',
        );
        const k3 = byLabel('kafkajs-3');
        expect(k3.lastJoin?.isLeader).toBe(false);
        expect([byLabel('facade-1').memberId(), byLabel('core-1').memberId()]).toContain(k3.lastJoin?.leaderId);
        expect(k3.owns()?.length).toBeGreaterThan(0);
        await stop('kafkajs-3', 'kafkajs-3 left');

        producing = false;
        await production;
        await producer.disconnect();
        await eventually(async () => expect(consumed.size).toBe(sent), 60_000);
        for (let i = 0; i < sent; i++) expect(consumed.has(`r${i}`)).toBe(true);
      } finally {
        producing = false;
        await production.catch(() => {});
        for (const m of live.splice(0)) await m.stop().catch(() => {});
      }
      // Every member left; what the last ones processed is committed: the log end of every partition.
      const ends = await client.offsets.latest(topic);
      const committed = await client.offsets.committed(
        groupId,
        ends.map((e) => ({ topic, partition: e.partition })),
      );
      expect(committed.map((c) => [c.partition, c.offset])).toEqual(ends.map((e) => [e.partition, e.offset]));
      expect(sent).toBeGreaterThan(0);
      await client.admin.deleteTopics([topic]).catch(() => {});
      await client.close();
      console.log(stablePoints.join('\n'));
    },
  );
});
