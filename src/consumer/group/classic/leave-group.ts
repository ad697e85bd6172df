import { LeaveGroup } from '../../../../protocol/apis/leave-group.js';
import type { GroupTransport } from '../coordinator-link.js';
import type { ResolvedOptions } from '../options.js';

/** How long leaving may hold up close(): it is a courtesy that spares the group a session timeout. */
const LEAVE_TIMEOUT_MS = 5_000;

/**
 * LeaveGroup for this member, best effort as Java's maybeLeaveGroup: one attempt, and a failure is ignored (the
 * coordinator drops the member after its session timeout anyway). v3+ names the member in a batch, with its
 * instance id and (v5+) the reason.
 */
export async function leaveClassicGroup(
  transport: GroupTransport,
  options: ResolvedOptions,
  memberId: string,
  reason = 'the consumer is being closed',
): Promise<void> {
  try {
    await transport.request(
      LeaveGroup,
      (version) =>
        version >= 3
          ? {
              groupId: options.groupId,
              members: [{ memberId, groupInstanceId: options.groupInstanceId, reason: reason.slice(0, 255) }],
            }
          : { groupId: options.groupId, memberId },
      { timeoutMs: Math.min(options.requestTimeoutMs, LEAVE_TIMEOUT_MS) },
    );
  } catch {
    // Best effort.
  }
}
