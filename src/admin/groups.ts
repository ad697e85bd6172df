import type { CallOptions } from '../cluster/deadline.js';
import type { TopicPartition } from '../cluster/partition-errors.js';
import { deleteCommittedOffsets, deleteGroups } from './delete-groups.js';
import { type DescribeGroupsOptions, describeGroups, type GroupDescription } from './describe-groups.js';
import type { GroupAdminContext } from './group-context.js';
import { type DescribeGroupOffsetsOptions, describeGroupOffsets, type GroupOffsetsDescription } from './group-lag.js';
import { type ListedGroup, type ListGroupsOptions, listGroups } from './list-groups.js';
import {
  exportGroupOffsets,
  type ImportOffsetsOptions,
  importGroupOffsets,
  type OffsetsExport,
} from './offsets-json.js';
import {
  type MemberToRemove,
  type RemovedMember,
  type RemoveMembersOptions,
  removeGroupMembers,
} from './remove-members.js';
import { type ResetOffsetsOptions, type ResetPlan, type ResetTarget, resetGroupOffsets } from './reset-offsets.js';

/**
 * Consumer-group administration, as `kafka-consumer-groups` offers it: list, describe with lag, reset, delete,
 * export and import. Every call takes `timeoutMs` and `signal` and settles by then with a typed error.
 */
export class GroupAdmin {
  constructor(private readonly ctx: GroupAdminContext) {}

  /** Every group of the cluster, optionally only some states (v4+) or types (v5+). */
  listGroups(options?: ListGroupsOptions): Promise<ListedGroup[]> {
    return listGroups(this.ctx, options);
  }

  /** State, assignor and members (with their partitions) of groups; no such group is described as Dead. */
  describeGroups(groupIds: readonly string[], options?: DescribeGroupsOptions): Promise<GroupDescription[]> {
    return describeGroups(this.ctx, groupIds, options);
  }

  /** A group with, per partition, its committed offset, log end offset and lag (`kafka-consumer-groups --describe`). */
  describeGroupOffsets(groupId: string, options?: DescribeGroupOffsetsOptions): Promise<GroupOffsetsDescription> {
    return describeGroupOffsets(this.ctx, groupId, options);
  }

  /** Moves an inactive group's offsets (dryRun: only returns the plan); refused while it has live members. */
  resetOffsets(groupId: string, target: ResetTarget, options?: ResetOffsetsOptions): Promise<ResetPlan> {
    return resetGroupOffsets(this.ctx, groupId, target, options);
  }

  /** Deletes a group's committed offsets for some partitions (refused for topics its members subscribe to). */
  deleteOffsets(groupId: string, partitions: readonly TopicPartition[], options?: CallOptions): Promise<void> {
    return deleteCommittedOffsets(this.ctx, groupId, partitions, options);
  }

  /** Deletes groups without live members, with their committed offsets. */
  deleteGroups(groupIds: readonly string[], options?: CallOptions): Promise<void> {
    return deleteGroups(this.ctx, groupIds, options);
  }

  /**
   * Removes members from a group on their behalf (Java's `removeMembersFromConsumerGroup`): static members by
   * group instance id, dynamic ones by member id, or `'all'` current members.
   */
  removeMembers(
    groupId: string,
    members: readonly MemberToRemove[] | 'all',
    options?: RemoveMembersOptions,
  ): Promise<RemovedMember[]> {
    return removeGroupMembers(this.ctx, groupId, members, options);
  }

  /** A group's committed offsets as a JSON-ready document. */
  exportOffsets(groupId: string, options?: CallOptions): Promise<OffsetsExport> {
    return exportGroupOffsets(this.ctx, groupId, options);
  }

  /** Commits an export's offsets to an inactive group (the one it names, or `options.groupId`). */
  importOffsets(input: string | OffsetsExport, options?: ImportOffsetsOptions): Promise<ResetPlan> {
    return importGroupOffsets(this.ctx, input, options);
  }
}
