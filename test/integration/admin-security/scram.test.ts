/**
 * SCRAM credential administration against the shared 4.4 and 3.9 brokers: tidemark's descriptions equal Java
 * AdminClient's, an upserted credential logs in (and a wrong password does not), deletions take effect, and
 * bad input (an unknown user, too few iterations, deleting what is not there) fails per user with the
 * broker's own message while the rest of the batch is applied.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KafkaError } from '../../../protocol/kafka-error.js';
import { ResourceErrors } from '../../../src/admin/resource-errors.js';
import { Client } from '../../../src/client.js';
import {
  bootstrap,
  legacyBootstrap,
  legacySaslBootstrap,
  SASL_ADMIN_USERNAME,
  SASL_USERNAME,
  saslBootstrap,
} from '../../harness/context.js';
import { useOracle } from './java-oracle.js';
import { eventually, failure, useClient } from './settle.js';

const javaOracle = useOracle();

const brokers = [
  ['4.4', bootstrap(), saslBootstrap()],
  ['3.9', legacyBootstrap(), legacySaslBootstrap()],
] as const;

for (const [generation, plain, sasl] of brokers) {
  describe.skipIf(!plain || !sasl)(`SCRAM credentials on the ${generation} broker`, () => {
    const client = useClient(() => plain!);

    it('upserts credentials that log in; descriptions equal Java AdminClient; deletions take effect', async () => {
      const user = `scram-${randomUUID().slice(0, 8)}`;
      const password = `pw-${randomUUID()}`;
      // One alteration per user and request: the broker refuses a user named twice (see below).
      expect(
        await client().scramCredentials.alter([{ user, mechanism: 'SCRAM-SHA-256', password, iterations: 8192 }]),
      ).toEqual([user]);
      expect(await client().scramCredentials.alter([{ user, mechanism: 'SCRAM-SHA-512', password }])).toEqual([user]);

      await eventually(async () => {
        const ours = await client().scramCredentials.describe([user]);
        // In the broker's order, as Java lists them too (3.9 does not sort by mechanism).
        const byMechanism = ours.map((u) => ({
          ...u,
          credentials: [...u.credentials].sort((a, b) => a.mechanism.localeCompare(b.mechanism)),
        }));
        expect(byMechanism).toEqual([
          {
            user,
            credentials: [
              { mechanism: 'SCRAM-SHA-256', iterations: 8192 },
              { mechanism: 'SCRAM-SHA-512', iterations: 4096 },
            ],
          },
        ]);
        const java = await javaOracle().describeScram(plain!, [user]);
        expect(java).toEqual({ [user]: ours[0].credentials });
      });

      // Everyone with credentials: the harness's users and the new one, as Java lists them.
      const all = await client().scramCredentials.describe();
      const javaAll = await javaOracle().describeScram(plain!, null);
      for (const name of [user, SASL_USERNAME, SASL_ADMIN_USERNAME]) {
        expect(javaAll[name], name).toEqual(all.find((u) => u.user === name)?.credentials);
      }

      for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const) {
        const login = new Client({ bootstrap: sasl!, sasl: { mechanism, username: user, password } });
        try {
          expect((await login.metadata()).brokers.size).toBeGreaterThan(0);
        } finally {
          await login.close();
        }
      }
      const wrong = new Client({
        bootstrap: sasl!,
        sasl: { mechanism: 'SCRAM-SHA-256', username: user, password: 'not-it' },
      });
      try {
        const err = await failure(wrong.metadata());
        expect(err.message).toMatch(/authentication failed|Authentication failed/i);
      } finally {
        await wrong.close();
      }

      expect(await client().scramCredentials.alter([{ user, mechanism: 'SCRAM-SHA-256', delete: true }])).toEqual([
        user,
      ]);
      await eventually(async () => {
        expect(await client().scramCredentials.describe([user])).toEqual([
          { user, credentials: [{ mechanism: 'SCRAM-SHA-512', iterations: 4096 }] },
        ]);
      });
      expect(await javaOracle().describeScram(plain!, [user])).toEqual({
        [user]: [{ mechanism: 'SCRAM-SHA-512', iterations: 4096 }],
      });
      await client().scramCredentials.alter([{ user, mechanism: 'SCRAM-SHA-512', delete: true }]);
    });

    it('an unknown user is RESOURCE_NOT_FOUND naming it, with the message Java AdminClient reports', async () => {
      const unknown = `nobody-${randomUUID().slice(0, 8)}`;
      const err = await failure(client().scramCredentials.describe([unknown]));
      expect(err).toBeInstanceOf(KafkaError);
      expect((err as KafkaError).errorName).toBe('RESOURCE_NOT_FOUND');
      expect((err as KafkaError).context.user).toBe(unknown);
      const java = await javaOracle().describeScram(plain!, [unknown]);
      expect(java[unknown]).toEqual({ error: 'ResourceNotFoundException', message: (err as KafkaError).brokerMessage });

      // Known and unknown together: the unknown one fails, the known one is still described.
      const several = await failure(client().scramCredentials.describe([SASL_USERNAME, unknown, `${unknown}-2`]));
      expect(several).toBeInstanceOf(ResourceErrors);
      // In the broker's order.
      expect([...(several as ResourceErrors).errors.keys()].sort()).toEqual([unknown, `${unknown}-2`]);
      expect((several as ResourceErrors<{ user: string }>).succeeded.map((u) => u.user)).toEqual([SASL_USERNAME]);
    });

    it('refused alterations carry the broker message; the rest of the batch is applied', async () => {
      const good = `scram-ok-${randomUUID().slice(0, 8)}`;
      const few = `scram-few-${randomUUID().slice(0, 8)}`;
      const absent = `scram-absent-${randomUUID().slice(0, 8)}`;
      const err = await failure(
        client().scramCredentials.alter([
          { user: good, mechanism: 'SCRAM-SHA-256', password: 'p' },
          { user: few, mechanism: 'SCRAM-SHA-256', password: 'p', iterations: 100 },
          { user: absent, mechanism: 'SCRAM-SHA-512', delete: true },
        ]),
      );
      expect(err).toBeInstanceOf(ResourceErrors);
      const errors = (err as ResourceErrors<string>).errors as Map<string, KafkaError>;
      expect(errors.get(few)?.errorName).toBe('UNACCEPTABLE_CREDENTIAL');
      expect(errors.get(few)?.brokerMessage).toMatch(/iterations/i);
      expect(errors.get(absent)?.errorName).toBe('RESOURCE_NOT_FOUND');
      expect(errors.get(absent)?.brokerMessage).toBeTruthy();
      expect((err as ResourceErrors<string>).succeeded).toEqual([good]);
      const twice = await failure(
        client().scramCredentials.alter([
          { user: few, mechanism: 'SCRAM-SHA-256', password: 'p' },
          { user: few, mechanism: 'SCRAM-SHA-512', password: 'p' },
        ]),
      );
      expect((twice as KafkaError).errorName).toBe('DUPLICATE_RESOURCE');
      expect((twice as KafkaError).context.user).toBe(few);
      expect((twice as KafkaError).brokerMessage).toMatch(/cannot be altered twice/);
      await eventually(async () => {
        expect(await javaOracle().describeScram(plain!, [good])).toEqual({
          [good]: [{ mechanism: 'SCRAM-SHA-256', iterations: 4096 }],
        });
      });
      await client().scramCredentials.alter([{ user: good, mechanism: 'SCRAM-SHA-256', delete: true }]);
    });
  });
}
