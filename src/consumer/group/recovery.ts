import { TidemarkError } from '../../../codecs/errors.js';
import { isKafkaError, type KafkaError } from '../../../protocol/kafka-error.js';
import { FencedInstanceIdError, GroupJoinRefusedError, GroupMaxSizeReachedError } from './errors.js';

/**
 * What a member does after a group request failed, for both protocols, following Java's response handlers.
 * - `retry`: the coordinator moved or is loading, the connection broke, the group is rebalancing: again, after
 *   a backoff (none for REBALANCE_IN_PROGRESS, which only means "rejoin");
 * - `fenced`: the member is no longer known (UNKNOWN_MEMBER_ID; KIP-848 FENCED_MEMBER_EPOCH): its partitions
 *   are lost and it joins afresh;
 * - `stale-generation`: ILLEGAL_GENERATION: the partitions are lost but the member id is still good;
 * - `report`: the application must hear of it, and the member keeps trying with backoff;
 * - `fatal`: the membership ends with this error.
 */
export type Recovery =
  | { kind: 'retry'; backoff: boolean }
  | { kind: 'fenced' }
  | { kind: 'stale-generation' }
  | { kind: 'report'; error: Error }
  | { kind: 'fatal'; error: Error };

const FATAL_HINTS: Readonly<Record<string, string>> = {
  INCONSISTENT_GROUP_PROTOCOL: 'the group runs another protocol type, or no assignor every member supports',
  INVALID_SESSION_TIMEOUT: 'the session timeout is outside the broker’s group.min/max.session.timeout.ms',
  INVALID_GROUP_ID: 'the group id is not valid',
  GROUP_AUTHORIZATION_FAILED: 'this client may not use the group',
  TOPIC_AUTHORIZATION_FAILED: 'this client may not read a subscribed topic',
  UNSUPPORTED_VERSION: 'the broker refused a feature this member uses (static membership, the consumer protocol)',
  UNRELEASED_INSTANCE_ID:
    'the group instance id is still held by a member that has not left; wait for its session to expire',
  UNSUPPORTED_ASSIGNOR: 'the broker has no server-side assignor of that name',
  INVALID_REQUEST: 'the coordinator found the request invalid',
  GROUP_ID_NOT_FOUND: 'the group exists with another protocol and cannot take this member',
};

export function recoveryFor(err: unknown, groupId: string, groupInstanceId: string | null): Recovery {
  if (isKafkaError(err)) return recoveryForCode(err, groupId, groupInstanceId);
  if (err instanceof TidemarkError && err.retriable) return { kind: 'retry', backoff: true };
  // A leader's assignor that threw, bytes a member sent that do not decode: Java throws them from poll() and
  // tries again on the next one.
  return { kind: 'report', error: err instanceof Error ? err : new Error(String(err)) };
}

function recoveryForCode(err: KafkaError, groupId: string, groupInstanceId: string | null): Recovery {
  switch (err.errorName) {
    case 'REBALANCE_IN_PROGRESS':
      return { kind: 'retry', backoff: false };
    case 'UNKNOWN_MEMBER_ID':
    case 'FENCED_MEMBER_EPOCH':
      return { kind: 'fenced' };
    case 'ILLEGAL_GENERATION':
      return { kind: 'stale-generation' };
    case 'FENCED_INSTANCE_ID':
      return { kind: 'fatal', error: new FencedInstanceIdError(groupId, err, groupInstanceId) };
    case 'GROUP_MAX_SIZE_REACHED':
      return { kind: 'report', error: new GroupMaxSizeReachedError(groupId, err) };
  }
  const hint = FATAL_HINTS[err.errorName];
  if (hint !== undefined) return { kind: 'fatal', error: new GroupJoinRefusedError(groupId, err, true, hint) };
  if (err.retriable) return { kind: 'retry', backoff: true };
  return { kind: 'report', error: new GroupJoinRefusedError(groupId, err, false, 'unexpected; retrying') };
}
