import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { TransactionalIdAuthorizationError, TransactionFatalError } from '../../../src/producer/transaction-errors.js';
import { SASL_USERNAME } from '../../harness/context.js';
import { eventually } from '../../harness/eventually.js';
import { DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION } from '../../harness/versions.js';
import { ADMIN_SASL, type AuthzBroker, startAuthzBroker, USER_SASL } from '../admin-security/authz-broker.js';
import { readValues } from './txn-setup.js';

/**
 * An unauthorised transactional id (issue 16's bad input), on the authorizer-enabled brokers of the security
 * tests (StandardAuthorizer, no rights without an ACL). The user may write the topic but has no WRITE on the
 * TransactionalId: initTransactions() fails with the typed fatal TransactionalIdAuthorizationError, the
 * producer refuses every later call with it, and nothing becomes visible. Once the ACL is granted, a new
 * producer with the same id initialises and commits, so the refusal was the ACL's and nothing else's.
 */
/** The authorizer broker of `kafkaVersion` with its super user's and the plain user's clients, for one block. */
function useAuthzBroker(kafkaVersion: string): { admin: Client; user: Client } {
  const scene = {} as { broker: AuthzBroker; admin: Client; user: Client };
  beforeAll(async () => {
    scene.broker = await startAuthzBroker(kafkaVersion);
    scene.admin = new Client({ bootstrap: scene.broker.saslBootstrap, sasl: ADMIN_SASL });
    scene.user = new Client({ bootstrap: scene.broker.saslBootstrap, sasl: USER_SASL });
  }, 240_000);
  afterAll(async () => {
    await Promise.all([scene.admin?.close(), scene.user?.close()]);
    await scene.broker?.stop();
  });
  return scene;
}

for (const kafkaVersion of [DEFAULT_KAFKA_VERSION, LEGACY_KAFKA_VERSION]) {
  describe(`transactional id authorization on an authorizer-enabled ${kafkaVersion} broker`, () => {
    const scene = useAuthzBroker(kafkaVersion);

    it('initTransactions() without WRITE on the transactional id is a typed fatal error; nothing is visible', async () => {
      const { admin, user } = scene;
      const tag = randomUUID().slice(0, 8);
      const topic = `txn-authz-${tag}`;
      const transactionalId = `txn-authz-id-${tag}`;
      const principal = `User:${SASL_USERNAME}`;
      await admin.admin.createTopics([{ name: topic, numPartitions: 1, replicationFactor: 1 }]);
      const allow = (
        resourceType: 'TOPIC' | 'TRANSACTIONAL_ID',
        resourceName: string,
        operation: 'WRITE' | 'DESCRIBE',
      ) =>
        ({
          resourceType,
          resourceName,
          patternType: 'LITERAL',
          principal,
          host: '*',
          operation,
          permission: 'ALLOW',
        }) as const;
      await admin.acls.createAcls([allow('TOPIC', topic, 'WRITE'), allow('TOPIC', topic, 'DESCRIBE')]);

      const denied = user.producer({ transactionalId, lingerMs: 0, maxBlockMs: 20_000 });
      try {
        const err = await denied.initTransactions().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(TransactionalIdAuthorizationError);
        expect(err).toBeInstanceOf(TransactionFatalError);
        expect((err as Error).message).toMatch(/TRANSACTIONAL_ID_AUTHORIZATION_FAILED/);
        expect((err as Error).message).toContain(transactionalId);
        expect(denied.transactionState).toBe('fatalError');
        expect(() => denied.beginTransaction()).toThrow(err as Error);
        await expect(denied.send({ topic, partition: 0, value: 'never' })).rejects.toBe(err);
        await expect(denied.initTransactions()).rejects.toBe(err);
      } finally {
        await denied.close();
      }
      expect(await readValues(admin, topic, [0], 'read_uncommitted')).toEqual([]);

      // The same id, once granted, works: the refusal above was the missing ACL.
      await admin.acls.createAcls([allow('TRANSACTIONAL_ID', transactionalId, 'WRITE')]);
      await eventually(async () => {
        const granted = user.producer({ transactionalId, lingerMs: 0, maxBlockMs: 20_000 });
        try {
          await granted.initTransactions();
          await granted.transaction((tx) => tx.send({ topic, partition: 0, value: 'granted' }));
        } finally {
          await granted.close();
        }
      });
      expect(await readValues(admin, topic, [0])).toEqual(['granted']);
    }, 120_000);
  });
}
