/** Shared set-up of the group membership integration tests: targets, topics, tidemark members. */
import { Client } from '../../../src/client.js';
import type { GroupMembershipOptions, GroupProtocol } from '../../../src/consumer/group/index.js';
import {
  bootstrap,
  kafkaVersion,
  legacyBootstrap,
  legacyKafkaVersion,
  uniqueTopicName,
} from '../../harness/context.js';

export interface GroupTarget {
  label: string;
  bootstrap: string;
  protocol: GroupProtocol;
  /** Two assignors to run the suite with: a non-incremental one, then an incremental one. */
  assignors: readonly [string, string];
}

/**
 * The same group suite runs with the classic protocol against Kafka 4.x and 3.9, and with KIP-848 against 4.x.
 * Not KIP-848 against 3.9: there the consumer protocol is a preview that the broker must be configured for
 * (`group.coordinator.rebalance.protocols=classic,consumer`), which the test broker is not; its
 * ConsumerGroupHeartbeat answers UNSUPPORTED_VERSION, and the liveness suite checks that tidemark says so with
 * a typed error.
 */
export function groupTargets(): GroupTarget[] {
  const v4 = kafkaVersion() ?? '4.x';
  const list: GroupTarget[] = [
    {
      label: `classic, Kafka ${v4}`,
      bootstrap: bootstrap(),
      protocol: 'classic',
      assignors: ['range', 'cooperative-sticky'],
    },
    { label: `KIP-848, Kafka ${v4}`, bootstrap: bootstrap(), protocol: 'consumer', assignors: ['range', 'uniform'] },
  ];
  const legacy = legacyBootstrap();
  if (legacy !== null) {
    const v3 = legacyKafkaVersion() ?? '3.9';
    list.push({
      label: `classic, Kafka ${v3}`,
      bootstrap: legacy,
      protocol: 'classic',
      assignors: ['range', 'cooperative-sticky'],
    });
  }
  return list;
}

/**
 * Short timeouts keep the suite fast: 6 s is the broker's group.min.session.timeout.ms. KIP-848 ignores the
 * session and heartbeat settings (the broker decides: 45 s and 5 s by default).
 */
export const TIMING = {
  sessionTimeoutMs: 6_000,
  heartbeatIntervalMs: 500,
  rebalanceTimeoutMs: 15_000,
  maxPollIntervalMs: 30_000,
  requestTimeoutMs: 15_000,
} as const;

export function membershipOptions(
  target: GroupTarget,
  groupId: string,
  assignor: string,
  extra: Partial<GroupMembershipOptions> = {},
): GroupMembershipOptions {
  return {
    groupId,
    protocol: target.protocol,
    ...(target.protocol === 'classic' ? { assignors: [assignor as 'range'] } : { serverAssignor: assignor }),
    ...TIMING,
    ...extra,
  };
}

export async function newTopic(target: GroupTarget, prefix: string, partitions: number): Promise<string> {
  const client = new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
  try {
    const name = uniqueTopicName(prefix);
    await client.admin.createTopics([{ name, numPartitions: partitions, replicationFactor: 1 }]);
    // Metadata reaches the group coordinator a moment after creation; KIP-848 assigns only what it knows.
    await client.metadata({ topics: [name] });
    return name;
  } finally {
    await client.close();
  }
}

export function uniqueGroup(prefix: string): string {
  return uniqueTopicName(`grp-${prefix}`);
}
