/**
 * DescribeTopicPartitions (KIP-966) on the shared 4.4 and 3.9 brokers: every partition of several topics,
 * paged by a small partition limit and followed to the end, equals the unpaged answer, Java AdminClient's
 * describeTopics (which uses the same API) and the Metadata view; an unknown topic is a typed error naming it.
 */
import { describe, expect, it, vi } from 'vitest';
import { DescribeTopicPartitions } from '../../../protocol/apis/describe-topic-partitions.js';
import { KafkaError } from '../../../protocol/kafka-error.js';
import type { DescribedTopicPartitions } from '../../../src/admin/topic-partitions.js';
import { Connection } from '../../../src/network/connection.js';
import { uniqueTopicName } from '../../harness/context.js';
import { type JavaTopic, useOracle } from './java-oracle.js';
import { failure, sharedBrokers, useClient } from './settle.js';

const javaOracle = useOracle();

/** Java reports no ELR as an empty list, and no epochs or offline replicas. */
function asJava(topics: DescribedTopicPartitions[]): JavaTopic[] {
  return topics.map((t) => ({
    name: t.name,
    topicId: t.topicId ?? '',
    isInternal: t.isInternal,
    partitions: t.partitions.map((p) => ({
      partition: p.partition,
      leader: p.leader,
      replicas: p.replicas,
      isr: p.isr,
      eligibleLeaderReplicas: p.eligibleLeaderReplicas ?? [],
      lastKnownElr: p.lastKnownElr ?? [],
    })),
  }));
}

for (const [generation, plain] of sharedBrokers()) {
  describe.skipIf(!plain)(`DescribeTopicPartitions on the ${generation} broker`, () => {
    const client = useClient(() => plain!);

    it('pages through every partition; equal to the unpaged answer, Java AdminClient and Metadata', async () => {
      const names = [uniqueTopicName('dtp-a'), uniqueTopicName('dtp-b')];
      await client().admin.createTopics([
        { name: names[0], numPartitions: 5 },
        { name: names[1], numPartitions: 3 },
      ]);
      const whole = await client().admin.describeTopicPartitions(names);
      expect(whole.map((t) => [t.name, t.partitions.length])).toEqual([
        [names[0], 5],
        [names[1], 3],
      ]);
      // Two partitions a page: four pages, the cursor crossing from one topic to the next.
      const requests = vi.spyOn(Connection.prototype, 'request');
      try {
        expect(await client().admin.describeTopicPartitions(names, { partitionLimit: 2 })).toEqual(whole);
        expect(requests.mock.calls.filter(([api]) => api === DescribeTopicPartitions)).toHaveLength(4);
      } finally {
        requests.mockRestore();
      }
      expect(await client().admin.describeTopicPartitions(names, { partitionLimit: 1 })).toEqual(whole);
      expect(await javaOracle().describeTopics(plain!, names, 2)).toEqual(asJava(whole));

      const metadata = await client().admin.describeTopics(names);
      for (const [i, t] of metadata.entries()) {
        expect(whole[i].topicId).toBe(t.topicId);
        expect(
          whole[i].partitions.map(({ partition, leader, leaderEpoch, replicas, isr }) => ({
            partition,
            leader,
            leaderEpoch,
            replicas,
            isr,
          })),
        ).toEqual(
          t.partitions.map(({ partition, leader, leaderEpoch, replicas, isr }) => ({
            partition,
            leader,
            leaderEpoch,
            replicas,
            isr,
          })),
        );
      }
      await client().admin.deleteTopics(names);
    });

    it('an unknown topic is UNKNOWN_TOPIC_OR_PARTITION naming it', async () => {
      const missing = uniqueTopicName('dtp-missing');
      const err = await failure(client().admin.describeTopicPartitions([missing]));
      expect(err).toBeInstanceOf(KafkaError);
      expect((err as KafkaError).errorName).toBe('UNKNOWN_TOPIC_OR_PARTITION');
      expect((err as KafkaError).context.topic).toBe(missing);
    });
  });
}
