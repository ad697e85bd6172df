import { Heartbeat } from '../../../../protocol/apis/heartbeat.js';
import { kafkaError } from '../../../../protocol/kafka-error.js';
import { backoffDelay } from '../../../cluster/backoff.js';
import type { GroupTransport } from '../coordinator-link.js';
import type { ResolvedOptions } from '../options.js';
import { type Recovery, recoveryFor } from '../recovery.js';
import type { Generation } from './join-sync.js';

/** What the heartbeat needs to know of the member, and how it tells the member what the coordinator said. */
export interface HeartbeatMember {
  /** The generation to heartbeat for, or undefined while none is stable (joining: no heartbeats, as Java). */
  stableGeneration(): Generation | undefined;
  /** The coordinator's answer calls for action (rejoin, partitions lost, fatal); ignored if the generation moved on. */
  onHeartbeatError(sent: Generation, recovery: Recovery): void;
}

/**
 * One classic heartbeat (Java's HeartbeatResponseHandler plus the heartbeat thread's session check); returns
 * when the next is due. A member that has had no successful heartbeat for a whole session assumes the
 * coordinator is gone and looks it up again.
 */
export class ClassicHeartbeat {
  private lastSuccess = Date.now();
  private failures = 0;

  constructor(
    private readonly transport: GroupTransport,
    private readonly options: ResolvedOptions,
    private readonly member: HeartbeatMember,
  ) {}

  /** The session starts now (the member just synced). */
  resetSession(): void {
    this.lastSuccess = Date.now();
    this.failures = 0;
  }

  async beat(): Promise<number> {
    const { options } = this;
    const sent = this.member.stableGeneration();
    if (sent === undefined) return options.heartbeatIntervalMs;
    if (Date.now() - this.lastSuccess > options.sessionTimeoutMs) {
      this.transport.coordinatorMoved();
      this.lastSuccess = Date.now();
    }
    let code: number;
    try {
      const response = await this.transport.request(
        Heartbeat,
        () => ({
          groupId: options.groupId,
          generationId: sent.generationId,
          memberId: sent.memberId,
          groupInstanceId: options.groupInstanceId,
        }),
        { timeoutMs: Math.min(options.requestTimeoutMs, options.sessionTimeoutMs) },
      );
      code = response.errorCode;
    } catch (err) {
      return this.failed(sent, recoveryFor(err, options.groupId, options.groupInstanceId));
    }
    if (code === 0) {
      this.lastSuccess = Date.now();
      this.failures = 0;
      return options.heartbeatIntervalMs;
    }
    const err = kafkaError(code, { context: { api: 'Heartbeat', groupId: options.groupId } });
    return this.failed(sent, recoveryFor(err, options.groupId, options.groupInstanceId));
  }

  private failed(sent: Generation, recovery: Recovery): number {
    if (recovery.kind === 'retry' && recovery.backoff) {
      // Coordinator moved, loading, or unreachable: look again soon, not a whole interval later.
      return backoffDelay(++this.failures, this.options.retryBackoff);
    }
    this.member.onHeartbeatError(sent, recovery);
    return this.options.heartbeatIntervalMs;
  }
}
