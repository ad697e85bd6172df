/**
 * Client quota administration against the shared 4.4 and 3.9 brokers: tidemark's descriptions equal Java
 * AdminClient's for exact, default and any-entity filters (strict and not), at both protocol versions;
 * validate-only changes nothing; invalid keys, entity types and filters are typed errors carrying the broker's
 * message, naming the entity, while the rest of the batch is applied. Entities are per-run users (and their
 * default client id), so the shared brokers' other clients are never throttled.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KafkaError } from '../../../protocol/kafka-error.js';
import { type ClientQuotaEntry, type QuotaFilterComponent, quotaEntityLabel } from '../../../src/admin/quotas.js';
import { ResourceErrors } from '../../../src/admin/resource-errors.js';
import { useOracle } from './java-oracle.js';
import { eventually, failure, sharedBrokers, useClient } from './settle.js';

const javaOracle = useOracle();

const key = (e: ClientQuotaEntry) => quotaEntityLabel(e.entity);
function sorted(entries: readonly ClientQuotaEntry[]): ClientQuotaEntry[] {
  return [...entries].sort((a, b) => key(a).localeCompare(key(b)));
}

for (const [generation, plain] of sharedBrokers()) {
  describe.skipIf(!plain)(`client quotas on the ${generation} broker`, () => {
    const client = useClient(() => plain!);

    it('sets, describes (equal to Java AdminClient for each filter and version) and removes quotas', async () => {
      const tag = randomUUID().slice(0, 8);
      const user = `quota-${tag}`;
      const clientId = `app-${tag}`;
      const ip = `10.${Number.parseInt(tag.slice(0, 2), 16)}.${Number.parseInt(tag.slice(2, 4), 16)}.7`;
      const altered = await client().quotas.alter([
        { entity: { user }, set: { producer_byte_rate: 1_048_576, consumer_byte_rate: 2_097_152 } },
        { entity: { user, 'client-id': clientId }, set: { request_percentage: 150.5 } },
        { entity: { user, 'client-id': null }, set: { producer_byte_rate: 4096 } },
        { entity: { ip }, set: { connection_creation_rate: 100 } },
      ]);
      // In the broker's order.
      expect(altered.map(quotaEntityLabel).sort()).toEqual(
        [`user=${user}`, `user=${user},client-id=${clientId}`, `user=${user},client-id=<default>`, `ip=${ip}`].sort(),
      );

      const filters: { components: QuotaFilterComponent[]; strict?: boolean }[] = [
        { components: [{ entityType: 'user', match: 'exact', name: user }] },
        { components: [{ entityType: 'user', match: 'exact', name: user }], strict: true },
        {
          components: [
            { entityType: 'user', match: 'exact', name: user },
            { entityType: 'client-id', match: 'default' },
          ],
        },
        {
          components: [
            { entityType: 'user', match: 'exact', name: user },
            { entityType: 'client-id', match: 'any' },
          ],
          strict: true,
        },
        { components: [{ entityType: 'ip', match: 'exact', name: ip }] },
      ];
      await eventually(async () => {
        expect(await client().quotas.describe(filters[1])).toEqual([
          { entity: { user }, values: { producer_byte_rate: 1_048_576, consumer_byte_rate: 2_097_152 } },
        ]);
      });
      for (const filter of filters) {
        const java = await javaOracle().describeQuotas(plain!, filter.components, filter.strict);
        expect(java.length, JSON.stringify(filter)).toBeGreaterThan(0);
        for (const version of [0, 1]) {
          const ours = await client().quotas.describe(filter, { version });
          expect(sorted(ours), `${JSON.stringify(filter)} v${version}`).toEqual(sorted(java));
        }
      }
      expect(sorted(await client().quotas.describe(filters[0]))).toEqual(
        sorted([
          { entity: { user }, values: { producer_byte_rate: 1_048_576, consumer_byte_rate: 2_097_152 } },
          { entity: { user, 'client-id': clientId }, values: { request_percentage: 150.5 } },
          { entity: { user, 'client-id': null }, values: { producer_byte_rate: 4096 } },
        ]),
      );

      // validateOnly: accepted, nothing changes.
      expect(
        await client().quotas.alter([{ entity: { user }, set: { producer_byte_rate: 1 } }], { validateOnly: true }),
      ).toEqual([{ user }]);
      await new Promise((r) => setTimeout(r, 500));
      expect(await javaOracle().describeQuotas(plain!, filters[1].components, true)).toEqual([
        { entity: { user }, values: { consumer_byte_rate: 2_097_152, producer_byte_rate: 1_048_576 } },
      ]);

      await client().quotas.alter(
        [
          { entity: { user }, remove: ['producer_byte_rate', 'consumer_byte_rate'] },
          { entity: { user, 'client-id': clientId }, remove: ['request_percentage'] },
          { entity: { user, 'client-id': null }, remove: ['producer_byte_rate'] },
          { entity: { ip }, remove: ['connection_creation_rate'] },
        ],
        { version: 0 },
      );
      await eventually(async () => {
        expect(await client().quotas.describe(filters[0])).toEqual([]);
        expect(await javaOracle().describeQuotas(plain!, filters[0].components)).toEqual([]);
      });
    });

    it('invalid keys, values and entities fail per entity with the broker message; the rest is applied', async () => {
      const user = `quota-bad-${randomUUID().slice(0, 8)}`;
      const single = await failure(client().quotas.alter([{ entity: { user }, set: { no_such_quota: 5 } }]));
      expect(single).toBeInstanceOf(KafkaError);
      expect((single as KafkaError).errorName).toBe('INVALID_REQUEST');
      expect((single as KafkaError).brokerMessage).toBe('Invalid configuration key no_such_quota');
      expect((single as KafkaError).context.entity).toBe(`user=${user}`);

      const several = await failure(
        client().quotas.alter([
          { entity: { user, 'client-id': 'neg' }, set: { producer_byte_rate: -5 } },
          { entity: { user }, set: { request_percentage: 50 } },
          { entity: { 'no-such-type': 'x' }, set: { producer_byte_rate: 5 } },
        ]),
      );
      expect(several).toBeInstanceOf(ResourceErrors);
      const errors = (several as ResourceErrors).errors as Map<string, KafkaError>;
      expect(errors.get(`user=${user},client-id=neg`)?.brokerMessage).toBe(
        'Quota producer_byte_rate must be greater than 0',
      );
      expect(errors.get('no-such-type=x')?.brokerMessage).toBe('Unhandled client quota entity type: no-such-type');
      expect((several as ResourceErrors).succeeded).toEqual([{ user }]);
      await eventually(async () => {
        expect(
          await javaOracle().describeQuotas(plain!, [{ entityType: 'user', match: 'exact', name: user }], true),
        ).toEqual([{ entity: { user }, values: { request_percentage: 50 } }]);
      });
      await client().quotas.alter([{ entity: { user }, remove: ['request_percentage'] }]);

      // A filter naming an entity type twice, and one with a type the broker does not know.
      const twice = await failure(
        client().quotas.describe({
          components: [
            { entityType: 'user', match: 'any' },
            { entityType: 'user', match: 'any' },
          ],
        }),
      );
      expect((twice as KafkaError).errorName).toBe('INVALID_REQUEST');
      expect((twice as KafkaError).brokerMessage).toBe('Entity type user cannot appear more than once in the filter.');
      const unknownType = await failure(
        client().quotas.describe({ components: [{ entityType: 'no-such-type', match: 'any' }] }),
      );
      expect(unknownType).toBeInstanceOf(KafkaError);
      expect((unknownType as KafkaError).brokerMessage).toBe('Unsupported entity type no-such-type');
    });
  });
}
