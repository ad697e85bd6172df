/**
 * A group's authorized operations (`describeGroups(…, { includeAuthorizedOperations: true })`) on an
 * authorizer-enabled Kafka 4.4 broker: for a live KIP-848 group (ConsumerGroupDescribe) a user granted only
 * DESCRIBE on the group (and on its topic, which ConsumerGroupDescribe also requires) is told exactly DESCRIBE,
 * the super user every operation of a group, both as Java's AdminClient reports them to the same user; without
 * the grants the group, then its topic, are typed authorization errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaError } from '../../../protocol/kafka-error.js';
import type { AclBinding } from '../../../src/admin/acls.js';
import { Client } from '../../../src/client.js';
import { SASL_USERNAME, uniqueTopicName } from '../../harness/context.js';
import { DEFAULT_KAFKA_VERSION } from '../../harness/versions.js';
import { membershipOptions } from '../group/setup.js';
import { TidemarkMember } from '../group/tidemark-member.js';
import { ADMIN_SASL, type AuthzBroker, startAuthzBroker, USER_SASL } from './authz-broker.js';
import { useOracle } from './java-oracle.js';
import { eventually, failure } from './settle.js';

const javaOracle = useOracle();

describe(`authorized operations of a KIP-848 group, authorizer-enabled ${DEFAULT_KAFKA_VERSION} broker`, () => {
  let broker: AuthzBroker;
  let admin: Client;
  let user: Client;
  let member: TidemarkMember | undefined;
  beforeAll(async () => {
    broker = await startAuthzBroker(DEFAULT_KAFKA_VERSION);
    admin = new Client({ bootstrap: broker.saslBootstrap, sasl: ADMIN_SASL });
    user = new Client({ bootstrap: broker.saslBootstrap, sasl: USER_SASL });
  }, 240_000);
  afterAll(async () => {
    await member?.close();
    await admin?.close();
    await user?.close();
    await broker?.stop();
  });

  it('a user with only DESCRIBE on the group is told exactly DESCRIBE, as Java is', async () => {
    const topic = uniqueTopicName('authz-ops');
    const group = uniqueTopicName('authz-ops-group');
    await admin.admin.createTopics([{ name: topic, numPartitions: 1 }]);
    // The member joins as the super user (PLAINTEXT is ANONYMOUS, a super user on this broker).
    const target = {
      label: 'KIP-848',
      bootstrap: broker.bootstrap,
      protocol: 'consumer' as const,
      assignors: ['uniform', 'range'] as const,
    };
    member = await new TidemarkMember('authz-ops', broker.bootstrap, membershipOptions(target, group, 'uniform')).start(
      [topic],
    );
    await eventually(async () => {
      const [g] = await admin.groups.describeGroups([group]);
      expect(g.type).toBe('consumer');
      expect(g.members).toHaveLength(1);
    });

    const denied = await failure(user.groups.describeGroups([group], { includeAuthorizedOperations: true }));
    expect(denied).toBeInstanceOf(KafkaError);
    expect((denied as KafkaError).errorName).toBe('GROUP_AUTHORIZATION_FAILED');

    const grant = (resourceType: 'GROUP' | 'TOPIC', resourceName: string): AclBinding => ({
      resourceType,
      resourceName,
      patternType: 'LITERAL',
      principal: `User:${SASL_USERNAME}`,
      host: '*',
      operation: 'DESCRIBE',
      permission: 'ALLOW',
    });
    await admin.acls.createAcls([grant('GROUP', group)]);
    // DESCRIBE on the group alone is not enough for ConsumerGroupDescribe: its members' topics must be
    // describable too. A typed error with the broker's message, where Java throws TopicAuthorizationException.
    await eventually(async () => {
      const topicDenied = await failure(user.groups.describeGroups([group], { includeAuthorizedOperations: true }));
      expect(topicDenied).toBeInstanceOf(KafkaError);
      expect((topicDenied as KafkaError).errorName).toBe('TOPIC_AUTHORIZATION_FAILED');
      expect((topicDenied as KafkaError).context).toMatchObject({ api: 'ConsumerGroupDescribe', groupId: group });
      expect((topicDenied as KafkaError).message).toContain('not authorized to describe');
    });
    const javaDenied = await failure(javaOracle().describeGroupOperations(broker.saslBootstrap, group, USER_SASL));
    expect(javaDenied.message).toContain('TopicAuthorizationException');

    await admin.acls.createAcls([grant('TOPIC', topic)]);
    await eventually(async () => {
      const [g] = await user.groups.describeGroups([group], { includeAuthorizedOperations: true });
      expect(g.type).toBe('consumer');
      expect(g.members?.[0].assignment).toEqual([{ topic, partition: 0 }]);
      // The group's operations: only the one granted on it.
      expect(g.authorizedOperations).toEqual(['DESCRIBE']);
    });
    expect(await javaOracle().describeGroupOperations(broker.saslBootstrap, group, USER_SASL)).toEqual(['DESCRIBE']);

    const [all] = await admin.groups.describeGroups([group], { includeAuthorizedOperations: true });
    expect(all.authorizedOperations).toEqual(
      await javaOracle().describeGroupOperations(broker.saslBootstrap, group, ADMIN_SASL),
    );
    expect(all.authorizedOperations).toEqual(['ALTER_CONFIGS', 'DELETE', 'DESCRIBE', 'DESCRIBE_CONFIGS', 'READ']);
  });
});
