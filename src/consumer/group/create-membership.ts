import type { Coordinators } from '../../coordinator/coordinators.js';
import { ClassicMembership } from './classic/classic-membership.js';
import { CoordinatorLink, type GroupCluster } from './coordinator-link.js';
import { ConsumerGroupMembership } from './kip848/consumer-membership.js';
import type { GroupMembership, GroupMembershipOptions } from './membership.js';
import { resolveOptions } from './options.js';

/**
 * A member of one consumer group, not yet joined (call `start`). `cluster` and `coordinators` are the client's
 * (`client.cluster`, `client.coordinators`): the member shares their metadata and coordinator cache, and opens
 * one connection of its own to the coordinator for the requests that wait for the whole group. Throws
 * ConfigError for a bad option.
 */
export function createGroupMembership(
  cluster: GroupCluster,
  coordinators: Coordinators,
  options: GroupMembershipOptions,
): GroupMembership {
  const resolved = resolveOptions(options);
  const link = new CoordinatorLink(resolved.groupId, cluster, coordinators);
  return resolved.protocol === 'classic'
    ? new ClassicMembership(resolved, link)
    : new ConsumerGroupMembership(resolved, link);
}
