/**
 * Every error code a Kafka broker can put in a response, as of Kafka 4.2
 * (codes -1 to 136, checked against Kafka 4.4's Errors enum). Names are Kafka's own, because they are what operators
 * see in broker logs and search for. The retriable flag follows the Java
 * client: true exactly when the exception Kafka maps the code to is a
 * `RetriableException` (directly or through `RefreshRetriableException` /
 * `InvalidMetadataException`). Messages are tidemark's own wording.
 */

type Entry = readonly [code: number, name: string, retriable: boolean, message: string];

// Kept in code order with no gaps so a test can prove nothing was skipped.
const TABLE = [
  [-1, 'UNKNOWN_SERVER_ERROR', false, 'the broker hit an unexpected error while handling the request'],
  [0, 'NONE', false, 'no error'],
  [1, 'OFFSET_OUT_OF_RANGE', false, 'the offset lies outside the range the broker holds for this partition'],
  [2, 'CORRUPT_MESSAGE', true, 'the record batch failed its CRC check, is oversized, or is otherwise malformed'],
  [3, 'UNKNOWN_TOPIC_OR_PARTITION', true, 'this broker hosts no such topic or partition'],
  [4, 'INVALID_FETCH_SIZE', false, 'the requested fetch size is not valid'],
  [5, 'LEADER_NOT_AVAILABLE', true, 'the partition has no leader right now, likely mid-election'],
  [6, 'NOT_LEADER_OR_FOLLOWER', true, 'this broker is not the leader, or not a replica, for the partition'],
  [7, 'REQUEST_TIMED_OUT', true, 'the broker timed out handling the request'],
  [8, 'BROKER_NOT_AVAILABLE', false, 'the broker is not available'],
  [9, 'REPLICA_NOT_AVAILABLE', true, 'the replica for this partition is not available'],
  [10, 'MESSAGE_TOO_LARGE', false, 'a record is larger than the broker accepts'],
  [11, 'STALE_CONTROLLER_EPOCH', false, 'the controller has moved to another broker'],
  [12, 'OFFSET_METADATA_TOO_LARGE', false, 'the offset commit metadata is too large'],
  [13, 'NETWORK_EXCEPTION', true, 'the connection closed before a response arrived'],
  [14, 'COORDINATOR_LOAD_IN_PROGRESS', true, 'the coordinator is still loading its state'],
  [15, 'COORDINATOR_NOT_AVAILABLE', true, 'the coordinator is not available'],
  [16, 'NOT_COORDINATOR', true, 'this broker is not the coordinator for the group or transaction'],
  [17, 'INVALID_TOPIC_EXCEPTION', false, 'the topic name is invalid, or the topic cannot be used this way'],
  [18, 'RECORD_LIST_TOO_LARGE', false, 'the record batch is larger than the log segment size'],
  [19, 'NOT_ENOUGH_REPLICAS', true, 'too few in-sync replicas to accept the write'],
  [
    20,
    'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
    true,
    'the write was appended, but fewer in-sync replicas than required have it',
  ],
  [21, 'INVALID_REQUIRED_ACKS', false, 'the produce request has an invalid acks value'],
  [22, 'ILLEGAL_GENERATION', false, 'the group generation id is not current'],
  [23, 'INCONSISTENT_GROUP_PROTOCOL', false, "the member's protocols are empty or do not match the group's"],
  [24, 'INVALID_GROUP_ID', false, 'the group id is not valid'],
  [25, 'UNKNOWN_MEMBER_ID', false, 'the coordinator does not know this member id'],
  [26, 'INVALID_SESSION_TIMEOUT', false, "the session timeout is outside the broker's allowed range"],
  [27, 'REBALANCE_IN_PROGRESS', false, 'the group is rebalancing; the member must rejoin'],
  [28, 'INVALID_COMMIT_OFFSET_SIZE', false, 'the offset commit is too large'],
  [29, 'TOPIC_AUTHORIZATION_FAILED', false, 'not authorized for the topic'],
  [30, 'GROUP_AUTHORIZATION_FAILED', false, 'not authorized for the group'],
  [31, 'CLUSTER_AUTHORIZATION_FAILED', false, 'not authorized for the cluster operation'],
  [32, 'INVALID_TIMESTAMP', false, "a record timestamp is outside the broker's accepted range"],
  [33, 'UNSUPPORTED_SASL_MECHANISM', false, 'the broker does not offer the requested SASL mechanism'],
  [34, 'ILLEGAL_SASL_STATE', false, 'the request is not valid at this point of the SASL exchange'],
  [35, 'UNSUPPORTED_VERSION', false, 'the broker does not support this API version'],
  [36, 'TOPIC_ALREADY_EXISTS', false, 'a topic with this name already exists'],
  [37, 'INVALID_PARTITIONS', false, 'the partition count is not valid'],
  [38, 'INVALID_REPLICATION_FACTOR', false, 'the replication factor is below 1 or above the number of brokers'],
  [39, 'INVALID_REPLICA_ASSIGNMENT', false, 'the replica assignment is not valid'],
  [40, 'INVALID_CONFIG', false, 'the configuration is not valid'],
  [41, 'NOT_CONTROLLER', true, 'this broker is not the active controller'],
  [42, 'INVALID_REQUEST', false, 'the broker rejected the request as malformed or unsupported; see the broker log'],
  [43, 'UNSUPPORTED_FOR_MESSAGE_FORMAT', false, "the broker's message format version does not support this request"],
  [44, 'POLICY_VIOLATION', false, 'the request violates a configured broker policy'],
  [45, 'OUT_OF_ORDER_SEQUENCE_NUMBER', false, 'the broker saw an out-of-order producer sequence number'],
  [46, 'DUPLICATE_SEQUENCE_NUMBER', false, 'the broker saw a duplicate producer sequence number'],
  [47, 'INVALID_PRODUCER_EPOCH', false, 'the producer epoch is stale'],
  [48, 'INVALID_TXN_STATE', false, 'the operation is not valid in the current transaction state'],
  [49, 'INVALID_PRODUCER_ID_MAPPING', false, 'the producer id is not the one assigned to this transactional id'],
  [50, 'INVALID_TRANSACTION_TIMEOUT', false, "the transaction timeout exceeds the broker's maximum"],
  [51, 'CONCURRENT_TRANSACTIONS', true, 'another operation on the same transaction is still in progress'],
  [52, 'TRANSACTION_COORDINATOR_FENCED', false, 'the transaction coordinator sending markers has been superseded'],
  [53, 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', false, 'not authorized for the transactional id'],
  [54, 'SECURITY_DISABLED', false, 'security features are disabled on the broker'],
  [55, 'OPERATION_NOT_ATTEMPTED', false, 'the broker skipped this operation because another in the batch failed'],
  [56, 'KAFKA_STORAGE_ERROR', true, "a disk error occurred while accessing the partition's log"],
  [57, 'LOG_DIR_NOT_FOUND', false, "the log directory is not in the broker's configuration"],
  [58, 'SASL_AUTHENTICATION_FAILED', false, 'SASL authentication failed'],
  [59, 'UNKNOWN_PRODUCER_ID', false, 'the broker holds no state for this producer id, e.g. after its records expired'],
  [60, 'REASSIGNMENT_IN_PROGRESS', false, 'a partition reassignment is in progress'],
  [61, 'DELEGATION_TOKEN_AUTH_DISABLED', false, 'delegation tokens are disabled'],
  [62, 'DELEGATION_TOKEN_NOT_FOUND', false, 'the delegation token does not exist'],
  [63, 'DELEGATION_TOKEN_OWNER_MISMATCH', false, 'the principal is neither owner nor renewer of the delegation token'],
  [64, 'DELEGATION_TOKEN_REQUEST_NOT_ALLOWED', false, 'delegation token requests are not allowed on this connection'],
  [65, 'DELEGATION_TOKEN_AUTHORIZATION_FAILED', false, 'not authorized for the delegation token'],
  [66, 'DELEGATION_TOKEN_EXPIRED', false, 'the delegation token has expired'],
  [67, 'INVALID_PRINCIPAL_TYPE', false, 'the principal type is not supported'],
  [68, 'NON_EMPTY_GROUP', false, 'the group still has members'],
  [69, 'GROUP_ID_NOT_FOUND', false, 'the group does not exist'],
  [70, 'FETCH_SESSION_ID_NOT_FOUND', true, 'the broker has no fetch session with this id'],
  [71, 'INVALID_FETCH_SESSION_EPOCH', true, 'the fetch session epoch does not match'],
  [72, 'LISTENER_NOT_FOUND', true, 'the leader has no listener matching the one the metadata request used'],
  [73, 'TOPIC_DELETION_DISABLED', false, 'topic deletion is disabled on the cluster'],
  [74, 'FENCED_LEADER_EPOCH', true, "the request's leader epoch is older than the broker's"],
  [75, 'UNKNOWN_LEADER_EPOCH', true, "the request's leader epoch is newer than the broker's"],
  [76, 'UNSUPPORTED_COMPRESSION_TYPE', false, "this request version cannot carry the partition's compression type"],
  [77, 'STALE_BROKER_EPOCH', false, 'the broker epoch has changed'],
  [78, 'OFFSET_NOT_AVAILABLE', true, 'the new leader has not caught up its high watermark, so offsets are not settled'],
  [79, 'MEMBER_ID_REQUIRED', false, 'the member must rejoin with the member id the coordinator assigned'],
  [80, 'PREFERRED_LEADER_NOT_AVAILABLE', true, 'the preferred leader is not available'],
  [81, 'GROUP_MAX_SIZE_REACHED', false, 'the group is at its maximum size'],
  [82, 'FENCED_INSTANCE_ID', false, 'another member with the same group.instance.id has replaced this one'],
  [83, 'ELIGIBLE_LEADERS_NOT_AVAILABLE', true, 'no eligible leader is available for the partition'],
  [84, 'ELECTION_NOT_NEEDED', true, 'the partition already has the desired leader'],
  [85, 'NO_REASSIGNMENT_IN_PROGRESS', false, 'no partition reassignment is in progress'],
  [86, 'GROUP_SUBSCRIBED_TO_TOPIC', false, 'cannot delete offsets of a topic the group is subscribed to'],
  [87, 'INVALID_RECORD', false, 'the broker rejected a record as invalid'],
  [88, 'UNSTABLE_OFFSET_COMMIT', true, 'pending transactional offsets must settle first'],
  [89, 'THROTTLING_QUOTA_EXCEEDED', true, 'the request exceeded a throttling quota'],
  [90, 'PRODUCER_FENCED', false, 'a newer producer with the same transactional id has fenced this one'],
  [91, 'RESOURCE_NOT_FOUND', false, 'the referenced resource does not exist'],
  [92, 'DUPLICATE_RESOURCE', false, 'the request names the same resource more than once'],
  [93, 'UNACCEPTABLE_CREDENTIAL', false, 'the credential does not meet the acceptance criteria'],
  [94, 'INCONSISTENT_VOTER_SET', false, 'the sender or receiver is not one of the expected voters'],
  [95, 'INVALID_UPDATE_VERSION', false, 'the update version is not valid'],
  [96, 'FEATURE_UPDATE_FAILED', false, 'a server error prevented updating the finalized features'],
  [97, 'PRINCIPAL_DESERIALIZATION_FAILURE', false, 'the forwarded request principal could not be deserialized'],
  [98, 'SNAPSHOT_NOT_FOUND', false, 'the requested snapshot does not exist'],
  [99, 'POSITION_OUT_OF_RANGE', false, 'the snapshot position is negative or past its end'],
  [100, 'UNKNOWN_TOPIC_ID', true, 'this broker hosts no topic with this id'],
  [101, 'DUPLICATE_BROKER_REGISTRATION', false, 'the broker id is already registered'],
  [102, 'BROKER_ID_NOT_REGISTERED', false, 'the broker id is not registered'],
  [103, 'INCONSISTENT_TOPIC_ID', true, "the topic id does not match the log's"],
  [104, 'INCONSISTENT_CLUSTER_ID', false, "the cluster id does not match the server's"],
  [105, 'TRANSACTIONAL_ID_NOT_FOUND', false, 'the transactional id does not exist'],
  [106, 'FETCH_SESSION_TOPIC_ID_ERROR', true, 'the fetch session used topic ids inconsistently'],
  [107, 'INELIGIBLE_REPLICA', false, 'the proposed ISR contains an ineligible replica'],
  [108, 'NEW_LEADER_ELECTED', false, 'the partition state was updated, but the leader changed'],
  [109, 'OFFSET_MOVED_TO_TIERED_STORAGE', false, 'the offset is now only in tiered storage'],
  [110, 'FENCED_MEMBER_EPOCH', false, 'the member epoch was fenced; the member must give up its partitions and rejoin'],
  [111, 'UNRELEASED_INSTANCE_ID', false, 'the instance id is still held by another member, which must leave first'],
  [112, 'UNSUPPORTED_ASSIGNOR', false, 'the group does not support this assignor or its version range'],
  [113, 'STALE_MEMBER_EPOCH', false, 'the member epoch is stale; retry once a heartbeat returns the current one'],
  [114, 'MISMATCHED_ENDPOINT_TYPE', false, 'the request reached an endpoint of the wrong type'],
  [115, 'UNSUPPORTED_ENDPOINT_TYPE', false, 'this endpoint type is not supported'],
  [116, 'UNKNOWN_CONTROLLER_ID', false, 'the controller id is unknown'],
  [117, 'UNKNOWN_SUBSCRIPTION_ID', false, 'the telemetry subscription id is unknown or outdated'],
  [118, 'TELEMETRY_TOO_LARGE', false, 'the telemetry push is larger than the broker accepts'],
  [119, 'INVALID_REGISTRATION', false, 'the controller considers the broker registration invalid'],
  [120, 'TRANSACTION_ABORTABLE', false, 'the transaction failed; abort it to keep using the transactional id'],
  [121, 'INVALID_RECORD_STATE', false, 'the record is not in a state that allows this acknowledgement'],
  [122, 'SHARE_SESSION_NOT_FOUND', true, 'the broker has no such share session'],
  [123, 'INVALID_SHARE_SESSION_EPOCH', true, 'the share session epoch does not match'],
  [124, 'FENCED_STATE_EPOCH', false, 'the share-group state epoch does not match'],
  [125, 'INVALID_VOTER_KEY', false, "the voter key does not match the receiving replica's"],
  [126, 'DUPLICATE_VOTER', false, 'the voter is already in the voter set'],
  [127, 'VOTER_NOT_FOUND', false, 'the voter is not in the voter set'],
  [128, 'INVALID_REGULAR_EXPRESSION', false, 'the regular expression is not valid'],
  [129, 'REBOOTSTRAP_REQUIRED', false, 'client metadata is stale; the client must rebootstrap'],
  [130, 'STREAMS_INVALID_TOPOLOGY', false, 'the Streams topology is not valid'],
  [131, 'STREAMS_INVALID_TOPOLOGY_EPOCH', false, 'the Streams topology epoch is not valid'],
  [132, 'STREAMS_TOPOLOGY_FENCED', false, 'the Streams topology epoch is outdated'],
  [133, 'SHARE_SESSION_LIMIT_REACHED', true, 'the broker has reached its share session limit'],
  [134, 'GROUP_DELETION_FAILED', false, 'the group could not be deleted'],
  [
    135,
    'STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED',
    false,
    'the streams group topology description could not be updated',
  ],
  [136, 'CONTROLLER_ID_NOT_REGISTERED', false, 'the controller id is not registered'],
] as const satisfies readonly Entry[];

type Row = (typeof TABLE)[number];

/** Kafka's name for an error code, e.g. `'NOT_LEADER_OR_FOLLOWER'`. */
export type ErrorName = Row[1];

export interface ErrorInfo {
  readonly code: number;
  readonly name: ErrorName;
  readonly retriable: boolean;
  /** tidemark's description of the condition. */
  readonly message: string;
}

/** Every known code in ascending order. */
export const ERROR_TABLE: readonly ErrorInfo[] = Object.freeze(
  TABLE.map(([code, name, retriable, message]) => Object.freeze({ code, name, retriable, message })),
);

const byCode = new Map<number, ErrorInfo>(ERROR_TABLE.map((e) => [e.code, e]));
const byName = new Map<string, ErrorInfo>(ERROR_TABLE.map((e) => [e.name, e]));

/**
 * Each name mapped to its literal code, so `ErrorCode.NOT_COORDINATOR` has type `16` and a `switch` over
 * response codes reads like Kafka's own handlers.
 */
export const ErrorCode = Object.freeze(Object.fromEntries(TABLE.map(([code, name]) => [name, code]))) as {
  readonly [R in Row as R[1]]: R[0];
};

/** The table entry for a code, or `undefined` for a code this client does not know. */
export function errorInfo(code: number): ErrorInfo | undefined {
  return byCode.get(code);
}

/** The table entry for a name; `undefined` for anything that is not one of Kafka's names. */
export function errorInfoByName(name: string): ErrorInfo | undefined {
  return byName.get(name);
}
