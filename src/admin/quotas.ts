import { TidemarkError } from '../../codecs/errors.js';
import { AlterClientQuotas } from '../../protocol/apis/alter-client-quotas.js';
import { DescribeClientQuotas } from '../../protocol/apis/describe-client-quotas.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { type AdminCallOptions, type AdminContext, adminRequest, checkAnswerCount } from './admin-context.js';
import { throwResourceErrors } from './resource-errors.js';

/**
 * Client quotas (KIP-546), as Java's AdminClient `describeClientQuotas` and `alterClientQuotas` offer them. An
 * entity is a set of components, each an entity type (`user`, `client-id`, `ip`) and a name, where null names
 * the type's default entity. Quota keys (`producer_byte_rate`, `request_percentage`, …) and values are the
 * broker's to check: one it refuses comes back as a KafkaError carrying its message, naming the entity.
 */

/** Entity type to name; null is the default entity of the type. E.g. `{ user: 'alice', 'client-id': null }`. */
export type QuotaEntity = Record<string, string | null>;

/** One component of a describe filter. */
export type QuotaFilterComponent =
  /** The entity of this type with this name. */
  | { entityType: string; match: 'exact'; name: string }
  /** The default entity of the type. */
  | { entityType: string; match: 'default' }
  /** Any entity of the type, default included. */
  | { entityType: string; match: 'any' };

export interface QuotaFilter {
  components: readonly QuotaFilterComponent[];
  /** Only entities with no component beyond those filtered on (Java's `containsOnly`). */
  strict?: boolean;
}

export interface ClientQuotaEntry {
  entity: QuotaEntity;
  /** Quota key to value. */
  values: Record<string, number>;
}

export interface QuotaAlteration {
  entity: QuotaEntity;
  /** Keys to set, with their values. */
  set?: Record<string, number>;
  /** Keys to remove. */
  remove?: readonly string[];
}

const MATCH_TYPES = { exact: 0, default: 1, any: 2 } as const;

/** Kafka's order of entity types; brokers answer components in any order, tidemark lists them in this one. */
const TYPE_ORDER = ['user', 'client-id', 'ip'];
const typeRank = (type: string) => (TYPE_ORDER.includes(type) ? TYPE_ORDER.indexOf(type) : TYPE_ORDER.length);

/** How errors and ResourceErrors name an entity: `user=alice,client-id=<default>`, whatever the given order. */
export function quotaEntityLabel(entity: QuotaEntity): string {
  return Object.entries(entity)
    .sort(([a], [b]) => typeRank(a) - typeRank(b) || a.localeCompare(b))
    .map(([type, name]) => `${type}=${name ?? '<default>'}`)
    .join(',');
}

function entityFromWire(components: readonly { entityType: string; entityName: string | null }[]): QuotaEntity {
  const entity: QuotaEntity = {};
  const ordered = [...components].sort(
    (a, b) => typeRank(a.entityType) - typeRank(b.entityType) || a.entityType.localeCompare(b.entityType),
  );
  for (const c of ordered) entity[c.entityType] = c.entityName;
  return entity;
}

function entityToWire(entity: QuotaEntity): { entityType: string; entityName: string | null }[] {
  const components = Object.entries(entity).map(([entityType, entityName]) => ({ entityType, entityName }));
  if (components.length === 0) throw new TidemarkError('a quota entity needs at least one component');
  return components;
}

/** Describing and altering client quotas. Every call takes `timeoutMs` and `signal`. */
export class QuotaAdmin {
  constructor(private readonly ctx: AdminContext) {}

  /** The entities matching `filter`, with their quota values; an invalid filter fails with the broker message. */
  async describe(filter: QuotaFilter, options: AdminCallOptions = {}): Promise<ClientQuotaEntry[]> {
    const components = filter.components.map((c) => {
      const matchType = Object.hasOwn(MATCH_TYPES, c.match) ? MATCH_TYPES[c.match] : undefined;
      if (matchType === undefined) throw new TidemarkError(`unknown quota match ${JSON.stringify(c.match)}`);
      return { entityType: c.entityType, matchType, match: c.match === 'exact' ? c.name : null };
    });
    const { response, version } = await adminRequest(
      this.ctx,
      DescribeClientQuotas,
      () => ({ components, strict: filter.strict ?? false }),
      options,
    );
    if (response.errorCode !== 0) {
      const context = { api: 'DescribeClientQuotas', version, filter: JSON.stringify(filter.components) };
      throw kafkaError(response.errorCode, { message: response.errorMessage, context });
    }
    return (response.entries ?? []).map((e) => ({
      entity: entityFromWire(e.entity),
      values: Object.fromEntries(e.values.map((v) => [v.key, v.value])),
    }));
  }

  /**
   * Sets and removes quota values; resolves with the entities altered (with `validateOnly`, that would be).
   * One refused entity is thrown as its KafkaError (context `entity` names it), several as ResourceErrors whose
   * `succeeded` are the entities altered.
   */
  async alter(
    alterations: readonly QuotaAlteration[],
    options: AdminCallOptions & { validateOnly?: boolean } = {},
  ): Promise<QuotaEntity[]> {
    if (alterations.length === 0) throw new TidemarkError('no quota alterations given');
    const entries = alterations.map((a) => ({
      entity: entityToWire(a.entity),
      ops: [
        ...Object.entries(a.set ?? {}).map(([key, value]) => ({ key, value, remove: false })),
        ...(a.remove ?? []).map((key) => ({ key, value: 0, remove: true })),
      ],
    }));
    const { response, version } = await adminRequest(
      this.ctx,
      AlterClientQuotas,
      () => ({ entries, validateOnly: options.validateOnly ?? false }),
      options,
    );
    checkAnswerCount(AlterClientQuotas, version, response.entries.length, alterations.length, 'entities');
    const errors = new Map<string, TidemarkError>();
    const altered: QuotaEntity[] = [];
    for (const r of response.entries) {
      const entity = entityFromWire(r.entity);
      if (r.errorCode === 0) altered.push(entity);
      else {
        const context = { api: 'AlterClientQuotas', version, entity: quotaEntityLabel(entity) };
        errors.set(quotaEntityLabel(entity), kafkaError(r.errorCode, { message: r.errorMessage, context }));
      }
    }
    throwResourceErrors('AlterClientQuotas', errors, altered);
    return altered;
  }
}
