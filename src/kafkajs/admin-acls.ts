/**
 * kafkajs's ACL admin calls on the core's `client.acls`: createAcls, describeAcls and deleteAcls with kafkajs
 * 2.2.4's numeric enums (AclResourceTypes, AclOperationTypes, AclPermissionTypes, ResourcePatternTypes) and
 * its result shapes: `{ resources }` grouped by resource pattern, `{ filterResponses }` one per filter. The
 * codes are Kafka's wire codes under kafkajs's names, so a name translates to the core's by its enum key.
 */
import type { AclBinding, Client, AclFilter as CoreAclFilter } from '../index.js';
import { firstResourceError } from './admin-configs.js';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } from './constants.js';
import { KafkaJSNonRetriableError, translated } from './errors.js';

/** One access rule of a binding, in kafkajs's shape. */
export interface Acl {
  principal: string;
  host: string;
  operation: AclOperationTypes;
  permissionType: AclPermissionTypes;
}

/** The resource pattern a binding applies to. */
export interface AclResource {
  resourceType: AclResourceTypes;
  resourceName: string;
  resourcePatternType: ResourcePatternTypes;
}

/** A binding to create: resource pattern and rule (createAcls). */
export type AclEntry = Acl & AclResource;

/** Which bindings describeAcls and deleteAcls match; ANY codes match every value. */
export interface AclFilter {
  resourceType: AclResourceTypes;
  resourceName?: string;
  resourcePatternType: ResourcePatternTypes;
  principal?: string;
  host?: string;
  operation: AclOperationTypes;
  permissionType: AclPermissionTypes;
}

/** describeAcls: the matching bindings grouped by resource pattern. */
export interface DescribeAclResponse {
  resources: (AclResource & { acls: Acl[] })[];
}

/** A binding deleteAcls removed, with its (zero) error code. */
export interface MatchingAcl extends AclEntry {
  errorCode: number;
  errorMessage: string | null;
}

/** deleteAcls: one answer per filter, with the bindings it removed. */
export interface DeleteAclResponse {
  filterResponses: { errorCode: number; errorMessage: string | null; matchingAcls: MatchingAcl[] }[];
}

type Enum = Record<string, string | number>;

/** The core's name of a kafkajs enum value; a value kafkajs does not define is refused as kafkajs refuses it. */
function nameIn<N extends string>(e: Enum, what: string, code: unknown, item: unknown): N {
  const name = typeof code === 'number' ? e[code] : undefined;
  if (typeof name !== 'string') throw new KafkaJSNonRetriableError(`Invalid ${what} ${code}: ${JSON.stringify(item)}`);
  return name as N;
}

/** kafkajs's code of a core name; a name newer than kafkajs's enum (USER, CREATE_TOKENS…) keeps UNKNOWN's 0. */
function codeIn(e: Enum, name: string): number {
  const code = e[name];
  return typeof code === 'number' ? code : 0;
}

function checkStrings(entry: Record<string, unknown>, fields: string[], optional: boolean): void {
  for (const field of fields) {
    const value = entry[field];
    if (typeof value !== 'string' && !(optional && value === undefined)) {
      throw new KafkaJSNonRetriableError(`Invalid ACL ${field} ${String(value)}: ${JSON.stringify(entry)}`);
    }
  }
}

function toBinding(a: AclEntry): AclBinding {
  checkStrings(a as unknown as Record<string, unknown>, ['principal', 'host', 'resourceName'], false);
  return {
    resourceType: nameIn(AclResourceTypes, 'resource type', a.resourceType, a),
    resourceName: a.resourceName,
    patternType: nameIn(ResourcePatternTypes, 'resource pattern type', a.resourcePatternType, a),
    principal: a.principal,
    host: a.host,
    operation: nameIn(AclOperationTypes, 'operation type', a.operation, a),
    permission: nameIn(AclPermissionTypes, 'permission type', a.permissionType, a),
  };
}

function toFilter(f: AclFilter): CoreAclFilter {
  checkStrings(f as unknown as Record<string, unknown>, ['principal', 'host', 'resourceName'], true);
  return {
    resourceType: nameIn<AclBinding['resourceType']>(AclResourceTypes, 'resource type', f.resourceType, f),
    resourceName: f.resourceName ?? null,
    patternType: nameIn<AclBinding['patternType']>(
      ResourcePatternTypes,
      'resource pattern filter type',
      f.resourcePatternType,
      f,
    ),
    principal: f.principal ?? null,
    host: f.host ?? null,
    operation: nameIn<AclBinding['operation']>(AclOperationTypes, 'operation type', f.operation, f),
    permission: nameIn<AclBinding['permission']>(AclPermissionTypes, 'permission type', f.permissionType, f),
  };
}

function toEntry(b: AclBinding): AclEntry {
  return {
    resourceType: codeIn(AclResourceTypes, b.resourceType),
    resourceName: b.resourceName,
    resourcePatternType: codeIn(ResourcePatternTypes, b.patternType),
    principal: b.principal,
    host: b.host,
    operation: codeIn(AclOperationTypes, b.operation),
    permissionType: codeIn(AclPermissionTypes, b.permission),
  };
}

/** kafkajs `admin.createAcls`: true once every binding is created. */
export async function createAcls(client: Client, options: { acl: AclEntry[] }): Promise<boolean> {
  const { acl } = options;
  if (!acl || !Array.isArray(acl)) throw new KafkaJSNonRetriableError(`Invalid ACL array ${acl}`);
  if (acl.length === 0) throw new KafkaJSNonRetriableError('Empty ACL array');
  const bindings = acl.map(toBinding);
  await firstResourceError(() => client.acls.createAcls(bindings));
  return true;
}

/** kafkajs `admin.describeAcls`. */
export async function describeAcls(client: Client, filter: AclFilter): Promise<DescribeAclResponse> {
  const core = toFilter(filter);
  const bindings = await translated(() => client.acls.describeAcls(core));
  // The broker answers per resource pattern; the core lists its bindings in that order, so consecutive ones group.
  const resources: DescribeAclResponse['resources'] = [];
  for (const b of bindings) {
    const { principal, host, operation, permissionType, ...resource } = toEntry(b);
    const last = resources.at(-1);
    const same =
      last !== undefined &&
      last.resourceType === resource.resourceType &&
      last.resourceName === resource.resourceName &&
      last.resourcePatternType === resource.resourcePatternType;
    const acl = { principal, host, operation, permissionType };
    if (same) last.acls.push(acl);
    else resources.push({ ...resource, acls: [acl] });
  }
  return { resources };
}

/** kafkajs `admin.deleteAcls`. */
export async function deleteAcls(client: Client, options: { filters: AclFilter[] }): Promise<DeleteAclResponse> {
  const { filters } = options;
  if (!filters || !Array.isArray(filters)) throw new KafkaJSNonRetriableError(`Invalid ACL Filter array ${filters}`);
  if (filters.length === 0) throw new KafkaJSNonRetriableError('Empty ACL Filter array');
  const core = filters.map(toFilter);
  // One call per filter: the core answers the deleted bindings of all filters together, kafkajs per filter.
  const filterResponses = await translated(() =>
    Promise.all(
      core.map(async (f) => ({
        errorCode: 0,
        errorMessage: null,
        matchingAcls: (await firstResourceError(() => client.acls.deleteAcls([f]))).map((b) => ({
          errorCode: 0,
          errorMessage: null,
          ...toEntry(b),
        })),
      })),
    ),
  );
  return { filterResponses };
}
