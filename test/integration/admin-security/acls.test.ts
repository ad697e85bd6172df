/**
 * ACL administration against authorizer-enabled 4.4 and 3.9 brokers (StandardAuthorizer, super user `admin`,
 * `allow.everyone.if.no.acl.found=false`): tidemark's listings equal Java AdminClient's for every resource and
 * pattern type and every protocol version, an ACL takes effect for the user it names, denials (of ACL, SCRAM
 * credential and quota administration, and of a topic) are typed authorization errors naming the resource, and
 * bad bindings carry the broker's own message.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaError } from '../../../protocol/kafka-error.js';
import type { AclBinding } from '../../../src/admin/acls.js';
import { ResourceErrors } from '../../../src/admin/resource-errors.js';
import { Client } from '../../../src/client.js';
import { SASL_USERNAME, bootstrap as sharedBootstrap } from '../../harness/context.js';
import { DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION } from '../../harness/versions.js';
import { ADMIN_SASL, type AuthzBroker, startAuthzBroker, USER_SASL } from './authz-broker.js';
import { useOracle } from './java-oracle.js';
import { eventually, failure } from './settle.js';

const javaOracle = useOracle();

const key = (b: AclBinding) =>
  [b.resourceType, b.resourceName, b.patternType, b.principal, b.host, b.operation, b.permission].join('|');

/** Java and tidemark list in different orders; compare as sorted sets. */
function sorted(bindings: readonly AclBinding[]): AclBinding[] {
  return [...bindings].sort((a, b) => key(a).localeCompare(key(b)));
}

/** One binding of every resource type, literal and prefixed, allow and deny, for a principal of its own. */
function everyKind(principal: string, tag: string): AclBinding[] {
  const b = (x: Omit<AclBinding, 'principal' | 'host'> & { host?: string }): AclBinding => ({
    principal,
    host: '*',
    ...x,
  });
  return [
    b({
      resourceType: 'TOPIC',
      resourceName: `t-${tag}`,
      patternType: 'LITERAL',
      operation: 'READ',
      permission: 'ALLOW',
    }),
    b({
      resourceType: 'TOPIC',
      resourceName: `p-${tag}`,
      patternType: 'PREFIXED',
      operation: 'WRITE',
      permission: 'ALLOW',
    }),
    b({ resourceType: 'TOPIC', resourceName: '*', patternType: 'LITERAL', operation: 'DESCRIBE', permission: 'ALLOW' }),
    b({
      resourceType: 'GROUP',
      resourceName: `g-${tag}`,
      patternType: 'PREFIXED',
      operation: 'READ',
      permission: 'DENY',
    }),
    b({
      resourceType: 'CLUSTER',
      resourceName: 'kafka-cluster',
      patternType: 'LITERAL',
      operation: 'IDEMPOTENT_WRITE',
      permission: 'ALLOW',
    }),
    b({
      resourceType: 'TRANSACTIONAL_ID',
      resourceName: `tx-${tag}`,
      patternType: 'LITERAL',
      operation: 'WRITE',
      permission: 'ALLOW',
      host: '10.0.0.1',
    }),
    b({
      resourceType: 'DELEGATION_TOKEN',
      resourceName: `dt-${tag}`,
      patternType: 'LITERAL',
      operation: 'DESCRIBE',
      permission: 'ALLOW',
    }),
    b({
      resourceType: 'USER',
      resourceName: `User:u-${tag}`,
      patternType: 'LITERAL',
      operation: 'CREATE_TOKENS',
      permission: 'DENY',
    }),
  ];
}

for (const kafkaVersion of [DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION]) {
  describe(`ACLs on an authorizer-enabled ${kafkaVersion} broker`, () => {
    let broker: AuthzBroker;
    let admin: Client;
    let user: Client;
    beforeAll(async () => {
      broker = await startAuthzBroker(kafkaVersion);
      admin = new Client({ bootstrap: broker.saslBootstrap, sasl: ADMIN_SASL });
      user = new Client({ bootstrap: broker.saslBootstrap, sasl: USER_SASL });
    }, 240_000);
    afterAll(async () => {
      await admin?.close();
      await user?.close();
      await broker?.stop();
    });

    it('creates bindings of every resource and pattern type; listings equal Java AdminClient for each filter', async () => {
      const tag = randomUUID().slice(0, 8);
      const principal = `User:acl-${tag}`;
      const bindings = everyKind(principal, tag);
      expect(await admin.acls.createAcls(bindings)).toEqual(bindings);
      // The broker lists ACLs from its own replay of the metadata log, a moment after it created them: at load 58
      // (two test files at once beside a benchmark build) the first listing came back empty.
      await eventually(async () =>
        expect(sorted(await admin.acls.describeAcls({ principal }))).toEqual(sorted(bindings)),
      );

      const filters = [
        { principal },
        { principal, resourceType: 'TOPIC' as const },
        { principal, patternType: 'PREFIXED' as const },
        { principal, patternType: 'LITERAL' as const, resourceType: 'TOPIC' as const },
        // MATCH: the literal name, the wildcard and the prefix that covers it.
        { principal, resourceType: 'TOPIC' as const, resourceName: `p-${tag}-x`, patternType: 'MATCH' as const },
        { principal, permission: 'DENY' as const },
        { principal, host: '10.0.0.1' },
        { principal, operation: 'READ' as const },
      ];
      for (const filter of filters) {
        const ours = await admin.acls.describeAcls(filter);
        const java = await javaOracle().describeAcls(broker.bootstrap, filter);
        expect(sorted(ours), JSON.stringify(filter)).toEqual(sorted(java));
        expect(ours.length, JSON.stringify(filter)).toBeGreaterThan(0);
      }
      expect(sorted(await admin.acls.describeAcls({ principal }))).toEqual(sorted(bindings));
      const matched = await admin.acls.describeAcls(filters[4]);
      expect(matched.map((b) => b.resourceName).sort()).toEqual(['*', `p-${tag}`]);
    });

    it('describes and deletes at every protocol version the broker serves', async () => {
      const tag = randomUUID().slice(0, 8);
      const principal = `User:ver-${tag}`;
      // v0 only exists on 3.9; 4.x dropped it (KIP-896).
      const versions = kafkaVersion.startsWith('3.') ? [0, 1, 2, 3] : [1, 2, 3];
      for (const version of versions) {
        const binding: AclBinding = {
          resourceType: 'TOPIC',
          resourceName: `v${version}-${tag}`,
          patternType: 'LITERAL',
          principal,
          host: '*',
          operation: 'ALTER',
          permission: 'ALLOW',
        };
        expect(await admin.acls.createAcls([binding], { version })).toEqual([binding]);
        const filter = { principal, resourceName: binding.resourceName, patternType: 'LITERAL' as const };
        // The broker lists ACLs from its own replay of the metadata log, a moment after it created them.
        await eventually(async () => expect(await admin.acls.describeAcls(filter, { version })).toEqual([binding]));
        expect(await javaOracle().describeAcls(broker.bootstrap, filter)).toEqual([binding]);
        expect(await admin.acls.deleteAcls([filter], { version })).toEqual([binding]);
        await eventually(async () => expect(await javaOracle().describeAcls(broker.bootstrap, filter)).toEqual([]));
      }
      if (versions[0] === 0) {
        const err = await failure(admin.acls.describeAcls({ patternType: 'PREFIXED' }, { version: 0 }));
        expect(err.message).toMatch(/v0 can only express LITERAL patterns/);
      }
    });

    it('denies ACL administration to a user without rights, as typed errors naming the binding', async () => {
      const binding: AclBinding = {
        resourceType: 'TOPIC',
        resourceName: 'denied-topic',
        patternType: 'LITERAL',
        principal: `User:${SASL_USERNAME}`,
        host: '*',
        operation: 'READ',
        permission: 'ALLOW',
      };
      const created = await failure(user.acls.createAcls([binding]));
      expect(created).toBeInstanceOf(KafkaError);
      expect((created as KafkaError).errorName).toBe('CLUSTER_AUTHORIZATION_FAILED');
      expect((created as KafkaError).context.acl).toContain('TOPIC:denied-topic (LITERAL)');
      const described = await failure(user.acls.describeAcls({ resourceType: 'TOPIC' }));
      expect((described as KafkaError).errorName).toBe('CLUSTER_AUTHORIZATION_FAILED');
      const deleted = await failure(user.acls.deleteAcls([{ resourceType: 'TOPIC', resourceName: 'denied-topic' }]));
      expect((deleted as KafkaError).errorName).toBe('CLUSTER_AUTHORIZATION_FAILED');
      expect(await javaOracle().describeAcls(broker.bootstrap, { resourceName: 'denied-topic' })).toEqual([]);
    });

    it('denies SCRAM credential and quota administration too, naming the user or entity', async () => {
      const expectDenied = (err: Error) => {
        expect(err).toBeInstanceOf(KafkaError);
        expect((err as KafkaError).errorName).toBe('CLUSTER_AUTHORIZATION_FAILED');
        return err as KafkaError;
      };
      expectDenied(await failure(user.scramCredentials.describe([SASL_USERNAME])));
      const scram = expectDenied(
        await failure(
          user.scramCredentials.alter([{ user: 'denied-user', mechanism: 'SCRAM-SHA-256', password: 'p' }]),
        ),
      );
      expect(scram.context.user).toBe('denied-user');
      expectDenied(await failure(user.quotas.describe({ components: [] })));
      const quota = expectDenied(
        await failure(user.quotas.alter([{ entity: { user: 'denied-user' }, set: { request_percentage: 10 } }])),
      );
      expect(quota.context.entity).toBe('user=denied-user');
      // The super user may.
      const [own] = await admin.scramCredentials.describe([SASL_USERNAME]);
      expect(own.credentials.map((c) => c.mechanism).sort()).toEqual(['SCRAM-SHA-256', 'SCRAM-SHA-512']);
      expect(
        await admin.quotas.describe({ components: [{ entityType: 'user', match: 'exact', name: 'denied-user' }] }),
      ).toEqual([]);
    });

    it('an ACL takes effect for the user it names: denied, allowed, denied again after deleteAcls', async () => {
      const topic = `authz-${randomUUID().slice(0, 8)}`;
      await admin.admin.createTopics([{ name: topic, numPartitions: 1 }]);
      const before = await failure(user.admin.describeTopics([topic]));
      expect((before as KafkaError).errorName).toBe('TOPIC_AUTHORIZATION_FAILED');
      expect((before as KafkaError).context.topic).toBe(topic);

      const grant: AclBinding = {
        resourceType: 'TOPIC',
        resourceName: topic,
        patternType: 'LITERAL',
        principal: `User:${SASL_USERNAME}`,
        host: '*',
        operation: 'DESCRIBE',
        permission: 'ALLOW',
      };
      await admin.acls.createAcls([grant]);
      await eventually(async () => {
        const [described] = await user.admin.describeTopics([topic]);
        expect(described.name).toBe(topic);
        expect(described.partitions).toHaveLength(1);
      });

      const removed = await admin.acls.deleteAcls([{ resourceType: 'TOPIC', resourceName: topic, patternType: 'ANY' }]);
      expect(removed).toEqual([grant]);
      await eventually(async () => {
        const after = await failure(user.admin.describeTopics([topic]));
        expect((after as KafkaError).errorName).toBe('TOPIC_AUTHORIZATION_FAILED');
      });
    });

    it('bad bindings fail with the broker message; the others of the batch are created and reported', async () => {
      const tag = randomUUID().slice(0, 8);
      const good: AclBinding = {
        resourceType: 'GROUP',
        resourceName: `ok-${tag}`,
        patternType: 'LITERAL',
        principal: `User:bad-${tag}`,
        host: '*',
        operation: 'READ',
        permission: 'ALLOW',
      };
      // Refused by the broker, each with its own message: no `Type:` in the principal, an empty resource name,
      // a cluster not named kafka-cluster.
      const noType = { ...good, resourceName: `no-type-${tag}`, principal: `bad-${tag}` };
      const emptyName = { ...good, resourceName: '' };
      const cluster = { ...good, resourceType: 'CLUSTER' as const, resourceName: `c-${tag}` };

      const single = await failure(admin.acls.createAcls([good, noType]));
      expect(single).toBeInstanceOf(KafkaError);
      expect((single as KafkaError).errorName).toBe('INVALID_REQUEST');
      expect((single as KafkaError).brokerMessage).toMatch(/Could not parse principal/);
      expect((single as KafkaError).context.acl).toContain(`no-type-${tag}`);

      const several = await failure(admin.acls.createAcls([noType, good, emptyName, cluster]));
      expect(several).toBeInstanceOf(ResourceErrors);
      const errors = (several as ResourceErrors<AclBinding>).errors;
      expect([...errors.values()].map((e) => [(e as KafkaError).errorName, (e as KafkaError).brokerMessage])).toEqual([
        ['INVALID_REQUEST', expect.stringMatching(/Could not parse principal/)],
        ['INVALID_REQUEST', 'Invalid empty resource name'],
        ['INVALID_REQUEST', 'The only valid name for the CLUSTER resource is kafka-cluster'],
      ]);
      expect((several as ResourceErrors<AclBinding>).succeeded).toEqual([good]);
      expect(await javaOracle().describeAcls(broker.bootstrap, { principal: good.principal })).toEqual([good]);

      // Refused before sending, with a message, where the broker would answer UNKNOWN_SERVER_ERROR (ANY, MATCH
      // in a binding) or drop the connection (UNKNOWN in a filter).
      const vague = await failure(admin.acls.createAcls([{ ...good, operation: 'ANY' }]));
      expect(vague.message).toMatch(/cannot have operation ANY/);
      const unknown = await failure(admin.acls.describeAcls({ patternType: 'UNKNOWN' }));
      expect(unknown.message).toMatch(/unknown ACL pattern type "UNKNOWN"/);
      const typo = await failure(admin.acls.describeAcls({ operation: 'read' as never }));
      expect(typo.message).toMatch(/unknown ACL operation "read"/);
    });
  });
}

describe('ACLs on a broker without an authorizer', () => {
  it('are refused as SECURITY_DISABLED, with the broker message', async () => {
    const client = new Client({ bootstrap: sharedBootstrap() });
    try {
      const err = await failure(client.acls.describeAcls());
      expect(err).toBeInstanceOf(KafkaError);
      expect((err as KafkaError).errorName).toBe('SECURITY_DISABLED');
      expect((err as KafkaError).brokerMessage).toBeTruthy();
    } finally {
      await client.close();
    }
  });
});
