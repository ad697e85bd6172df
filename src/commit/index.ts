export { type CommitOffsetsOptions, commitOffsets } from './offset-commit.js';
export { type FetchOffsetsOptions, fetchCommittedOffsets, type GroupOffsetsQuery } from './offset-fetch.js';
export type { CommitCluster, CommitContext, CommittedOffset, GroupMembership } from './types.js';
