import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../../../protocol/kafka-error.js';
import { uniqueTopicName } from '../../harness/context.js';
import { eventually } from '../../harness/eventually.js';
import { DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION } from '../../harness/versions.js';
import { useJavaAdmin } from './java-admin.js';
import { useThreeNodeCluster, waitUntil } from './three-node.js';

/**
 * Leader election when no replica of the ISR is left, on three-node Kafka 4.4 and 3.9 clusters: a partition on
 * brokers A (leader) and B; B stops and leaves the ISR, A takes more records alone, then crashes. The partition
 * has no leader and (unclean.leader.election.enable=false) keeps none. A preferred election fails with the
 * error Java's AdminClient reports; an unclean one elects B, as it does for Java, and the records only A held
 * are gone: what "unclean" means.
 */

const javaAdmin = useJavaAdmin();

interface JavaPartition {
  partition: number;
  leader: number;
  replicas: number[];
}
interface JavaElection {
  topic: string;
  partition: number;
  error: string | null;
}

/** Java's exception class as the Kafka error name (PreferredLeaderNotAvailableException -> PREFERRED_LEADER_…). */
function javaErrorName(exception: string | null): string | null {
  if (exception === null) return null;
  return exception
    .replace(/Exception$/, '')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toUpperCase();
}

describe.each([DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION])(
  'unclean leader election, three-node Kafka %s',
  (kafkaVersion) => {
    const threeNodes = useThreeNodeCluster(`admin-unclean-${kafkaVersion.replace(/\./g, '')}`, kafkaVersion);
    const cluster = () => threeNodes().cluster;
    const client = () => threeNodes().client;

    const java = {
      describe: (topic: string) => javaAdmin().call<JavaPartition[]>(cluster().bootstrap, 'describeTopic', { topic }),
      elect: (type: 'preferred' | 'unclean', topic: string, partition: number) =>
        javaAdmin().call<JavaElection[]>(cluster().bootstrap, 'electLeaders', {
          type,
          partitions: [{ topic, partition }],
        }),
    };

    /** tidemark's election of one partition: the elected flag, or the Kafka error name it threw. */
    async function elect(type: 'preferred' | 'unclean', topic: string, partition: number): Promise<boolean | string> {
      try {
        const [result] = await client().admin.electLeaders(type, [{ topic, partition }]);
        expect(result).toMatchObject({ topic, partition });
        return result.elected;
      } catch (err) {
        if (!isKafkaError(err)) throw err;
        expect(err.context).toMatchObject({ api: 'ElectLeaders', topic, partition });
        return err.errorName;
      }
    }

    async function send(topic: string, count: number): Promise<void> {
      const producer = client().producer({ acks: 'all' });
      try {
        await Promise.all(
          [0, 1].flatMap((partition) =>
            Array.from({ length: count }, (_, i) => producer.send({ topic, partition, value: `r${i}` })),
          ),
        );
      } finally {
        await producer.close();
      }
    }

    const latest = async (topic: string) => (await client().offsets.latest(topic)).map((o) => o.offset);

    it('a partition whose only ISR member crashed: preferred fails as in Java, unclean elects the replica outside', {
      timeout: 360_000,
    }, async () => {
      const [a, b] = (await client().admin.describeCluster()).brokers.map((x) => x.nodeId);
      const topic = uniqueTopicName('admin-unclean');
      // min ISR 1: the ISR may shrink to A alone and A still takes acks=all records (and on 4.x, B is then not
      // kept as an eligible leader replica, KIP-966: it really is out).
      await client().admin.createTopics([
        {
          name: topic,
          replicaAssignment: [
            [a, b],
            [a, b],
          ],
          configs: { 'min.insync.replicas': '1', 'unclean.leader.election.enable': 'false' },
        },
      ]);
      await waitUntil('A leads, ISR [A, B]', async () => {
        const [t] = await client().admin.describeTopics([topic]);
        return t.partitions.every((p) => p.leader === a && p.isr.length === 2);
      });
      await send(topic, 5);

      await cluster().node(b).stop();
      await waitUntil('B out of the ISR', async () => {
        const [t] = await client().admin.describeTopics([topic]);
        return t.partitions.every((p) => p.leader === a && JSON.stringify(p.isr) === JSON.stringify([a]));
      });
      await send(topic, 10);
      expect(await latest(topic)).toEqual([15n, 15n]);

      // A crashes; with two of the three controller voters down there is no quorum until B is back.
      await cluster().node(a).kill();
      await cluster().node(b).restart();
      await waitUntil('no leader', async () => (await java.describe(topic)).every((p) => p.leader === -1), 180_000);
      const [leaderless] = await client().admin.describeTopics([topic]);
      expect(leaderless.partitions.map((p) => p.leader)).toEqual([-1, -1]);
      expect(leaderless.partitions.every((p) => !p.isr.includes(b))).toBe(true);

      // Preferred: A, the preferred replica, is down. The same typed error as Java's, for either partition.
      for (const partition of [0, 1]) {
        const [theirs] = await java.elect('preferred', topic, partition);
        expect(theirs.error).not.toBeNull();
        expect(await elect('preferred', topic, partition)).toBe(javaErrorName(theirs.error));
      }
      expect(await elect('preferred', topic, 0)).toBe('PREFERRED_LEADER_NOT_AVAILABLE');

      // Unclean: tidemark elects partition 0, Java partition 1; both succeed and both land on B.
      expect(await elect('unclean', topic, 0)).toBe(true);
      expect(await java.elect('unclean', topic, 1)).toEqual([{ topic, partition: 1, error: null }]);
      await waitUntil('B leads', async () => (await java.describe(topic)).every((p) => p.leader === b));
      await eventually(async () => {
        const [t] = await client().admin.describeTopics([topic]);
        expect(t.partitions.map((p) => ({ leader: p.leader, isr: p.isr }))).toEqual([
          { leader: b, isr: [b] },
          { leader: b, isr: [b] },
        ]);
      });
      // The 10 records only A had are not in B's log: the loss an unclean election accepts.
      await eventually(async () => expect(await latest(topic)).toEqual([5n, 5n]));

      // Now a leader is there: not needed, for tidemark (elected: false) as for Java.
      const [again] = await java.elect('unclean', topic, 1);
      expect(javaErrorName(again.error)).toBe('ELECTION_NOT_NEEDED');
      expect(await elect('unclean', topic, 0)).toBe(false);
    });
  },
);
