import { TidemarkError } from '../../codecs/errors.js';
import { CreateAcls } from '../../protocol/apis/create-acls.js';
import { DeleteAcls } from '../../protocol/apis/delete-acls.js';
import { DescribeAcls } from '../../protocol/apis/describe-acls.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import {
  type AclOperation,
  type AclPatternType,
  type AclPermission,
  type AclResourceType,
  codeOf,
  nameOf,
  OPERATION,
  PATTERN_TYPE,
  PERMISSION,
  RESOURCE_TYPE,
} from './acl-codes.js';
import { type AdminCallOptions, type AdminContext, adminRequest, checkAnswerCount } from './admin-context.js';
import { throwResourceErrors } from './resource-errors.js';

/**
 * Access-control lists, as Java's AdminClient `createAcls`, `describeAcls` and `deleteAcls` offer them: every
 * resource type (topic, group, cluster, transactional id, delegation token, user) and pattern type (literal,
 * prefixed; filters also any and match). The broker checks what it is sent: a binding or filter it refuses
 * comes back as a KafkaError carrying its message, naming the binding or filter.
 */

/** One access-control entry on a resource pattern (Java's AclBinding). */
export interface AclBinding {
  resourceType: AclResourceType;
  /** `kafka-cluster` for the cluster; `*` (with LITERAL) for every resource of the type. */
  resourceName: string;
  /** LITERAL or PREFIXED. */
  patternType: AclPatternType;
  /** `User:alice`, or `User:*` for everyone. */
  principal: string;
  /** `*` for any host. */
  host: string;
  operation: AclOperation;
  permission: AclPermission;
}

/** Which bindings to describe or delete (Java's AclBindingFilter): an absent or null field matches anything. */
export interface AclFilter {
  /** Defaults to ANY. */
  resourceType?: AclResourceType;
  resourceName?: string | null;
  /** Defaults to ANY; MATCH also finds the wildcard and prefixed patterns that cover `resourceName`. */
  patternType?: AclPatternType;
  principal?: string | null;
  host?: string | null;
  /** Defaults to ANY. */
  operation?: AclOperation;
  /** Defaults to ANY. */
  permission?: AclPermission;
}

/** A short name for a binding or filter, used in errors and as the key of ResourceErrors. */
export function aclLabel(b: AclFilter): string {
  const name = b.resourceName ?? '*any*';
  return `${b.resourceType ?? 'ANY'}:${name} (${b.patternType ?? 'ANY'}) ${b.permission ?? 'ANY'} ${b.principal ?? '*any*'} ${b.operation ?? 'ANY'} from ${b.host ?? '*any*'}`;
}

function filterFields(f: AclFilter) {
  return {
    resourceTypeFilter: codeOf(RESOURCE_TYPE, f.resourceType ?? 'ANY'),
    resourceNameFilter: f.resourceName ?? null,
    patternTypeFilter: codeOf(PATTERN_TYPE, f.patternType ?? 'ANY'),
    principalFilter: f.principal ?? null,
    hostFilter: f.host ?? null,
    operation: codeOf(OPERATION, f.operation ?? 'ANY'),
    permissionType: codeOf(PERMISSION, f.permission ?? 'ANY'),
  };
}

/**
 * A binding names one concrete resource pattern and entry: no ANY or MATCH. Brokers answer such a creation
 * with UNKNOWN_SERVER_ERROR and no message, so it is refused here with one.
 */
function checkBinding(b: AclBinding): void {
  const vague = [
    b.resourceType === 'ANY' && 'resource type ANY',
    (b.patternType === 'ANY' || b.patternType === 'MATCH') && `pattern type ${b.patternType}`,
    b.operation === 'ANY' && 'operation ANY',
    b.permission === 'ANY' && 'permission ANY',
  ].filter((v) => v !== false);
  if (vague.length > 0) {
    throw new TidemarkError(`an ACL binding cannot have ${vague.join(', ')}; that is for filters (${aclLabel(b)})`);
  }
}

/** v0 (Kafka 3.9 only) has no pattern type: it means LITERAL, so anything else cannot be sent. */
function checkV0Pattern(version: number, patternType: AclPatternType | undefined, label: string): void {
  if (version === 0 && patternType !== undefined && patternType !== 'LITERAL') {
    throw new TidemarkError(`ACL v0 can only express LITERAL patterns, not ${patternType} (${label})`);
  }
}

interface WireBinding {
  resourceType: number;
  resourceName: string;
  patternType: number;
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
}

function fromWire(b: WireBinding): AclBinding {
  return {
    resourceType: nameOf(RESOURCE_TYPE, b.resourceType),
    resourceName: b.resourceName,
    patternType: nameOf(PATTERN_TYPE, b.patternType),
    principal: b.principal,
    host: b.host,
    operation: nameOf(OPERATION, b.operation),
    permission: nameOf(PERMISSION, b.permissionType),
  };
}

/** Creating, listing and deleting ACLs. Every call takes `timeoutMs` and `signal`. */
export class AclAdmin {
  constructor(private readonly ctx: AdminContext) {}

  /**
   * Creates bindings; resolves with them when all were created. One refused binding is thrown as its
   * KafkaError (context `acl` names it); several as ResourceErrors, whose `succeeded` are the ones created.
   */
  async createAcls(bindings: readonly AclBinding[], options: AdminCallOptions = {}): Promise<AclBinding[]> {
    if (bindings.length === 0) throw new TidemarkError('no ACL bindings given');
    for (const b of bindings) checkBinding(b);
    const creations = bindings.map((b) => ({
      resourceType: codeOf(RESOURCE_TYPE, b.resourceType),
      resourceName: b.resourceName,
      resourcePatternType: codeOf(PATTERN_TYPE, b.patternType),
      principal: b.principal,
      host: b.host,
      operation: codeOf(OPERATION, b.operation),
      permissionType: codeOf(PERMISSION, b.permission),
    }));
    const { response, version } = await adminRequest(
      this.ctx,
      CreateAcls,
      (v) => {
        for (const b of bindings) checkV0Pattern(v, b.patternType, aclLabel(b));
        return { creations };
      },
      options,
    );
    checkAnswerCount(CreateAcls, version, response.results.length, bindings.length, 'bindings');
    const errors = new Map<string, TidemarkError>();
    const created: AclBinding[] = [];
    response.results.forEach((r, i) => {
      const binding = bindings[i];
      if (r.errorCode === 0) created.push({ ...binding });
      else {
        failed(errors, 'CreateAcls', version, aclLabel(binding), r);
      }
    });
    throwResourceErrors('CreateAcls', errors, created);
    return created;
  }

  /** The bindings matching `filter` (every binding without one), in the broker's order. */
  async describeAcls(filter: AclFilter = {}, options: AdminCallOptions = {}): Promise<AclBinding[]> {
    const fields = filterFields(filter);
    const { response, version } = await adminRequest(
      this.ctx,
      DescribeAcls,
      (v) => {
        checkV0Pattern(v, filter.patternType, aclLabel(filter));
        // v0 cannot say "any pattern"; it describes the literal ones.
        return v === 0 ? { ...fields, patternTypeFilter: 3 } : fields;
      },
      options,
    );
    if (response.errorCode !== 0) {
      const context = { api: 'DescribeAcls', version, acl: aclLabel(filter) };
      throw kafkaError(response.errorCode, { message: response.errorMessage, context });
    }
    return response.resources.flatMap((r) =>
      r.acls.map((a) =>
        fromWire({ ...a, resourceType: r.resourceType, resourceName: r.resourceName, patternType: r.patternType }),
      ),
    );
  }

  /**
   * Deletes every binding matching any of `filters`; resolves with the deleted bindings. A filter (or a
   * binding it matched) the broker refused is thrown as its KafkaError, several as ResourceErrors whose
   * `succeeded` are the bindings that were deleted.
   */
  async deleteAcls(filters: readonly AclFilter[], options: AdminCallOptions = {}): Promise<AclBinding[]> {
    if (filters.length === 0) throw new TidemarkError('no ACL filters given');
    const wire = filters.map(filterFields);
    const { response, version } = await adminRequest(
      this.ctx,
      DeleteAcls,
      (v) => {
        for (const f of filters) checkV0Pattern(v, f.patternType, aclLabel(f));
        return { filters: v === 0 ? wire.map((f) => ({ ...f, patternTypeFilter: 3 })) : wire };
      },
      options,
    );
    checkAnswerCount(DeleteAcls, version, response.filterResults.length, filters.length, 'filters');
    const errors = new Map<string, TidemarkError>();
    const deleted: AclBinding[] = [];
    response.filterResults.forEach((r, i) => {
      if (r.errorCode !== 0) {
        failed(errors, 'DeleteAcls', version, aclLabel(filters[i]), r);
        return;
      }
      for (const m of r.matchingAcls) {
        const binding = fromWire(m);
        if (m.errorCode === 0) deleted.push(binding);
        else failed(errors, 'DeleteAcls', version, aclLabel(binding), m);
      }
    });
    throwResourceErrors('DeleteAcls', errors, deleted);
    return deleted;
  }
}

/** Records a binding's or filter's refusal under its label, with the broker's own message. */
function failed(
  errors: Map<string, TidemarkError>,
  api: string,
  version: number,
  acl: string,
  r: { errorCode: number; errorMessage: string | null },
): void {
  errors.set(acl, kafkaError(r.errorCode, { message: r.errorMessage, context: { api, version, acl } }));
}
