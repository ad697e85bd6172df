import {
  ConsumerGroupHeartbeat,
  type ConsumerGroupHeartbeatResponse,
} from '../../../../protocol/apis/consumer-group-heartbeat.js';
import { kafkaError } from '../../../../protocol/kafka-error.js';
import { backoffDelay } from '../../../cluster/backoff.js';
import { UnsupportedVersionError } from '../../../network/errors.js';
import type { GroupTransport } from '../coordinator-link.js';
import { GroupProtocolUnsupportedError } from '../errors.js';
import type { ResolvedOptions } from '../options.js';
import { type Recovery, recoveryFor } from '../recovery.js';
import { HeartbeatRequestBuilder, type MemberSnapshot } from './heartbeat-request.js';

/** How long leaving may hold up close(). */
const LEAVE_TIMEOUT_MS = 5_000;

/** What the heartbeat needs of the member, and how it tells the member what the coordinator said. */
export interface HeartbeatingMember {
  /** What the next heartbeat reports; undefined while the member must not heartbeat (fenced, stale, left). */
  snapshot(): MemberSnapshot | undefined;
  /** Whether an answer to a heartbeat sent at `sentEpoch` still applies (the member was not fenced since). */
  current(sentEpoch: number): boolean | 'stop';
  accepted(response: ConsumerGroupHeartbeatResponse): void;
  failed(recovery: Recovery): void;
}

/**
 * One ConsumerGroupHeartbeat (Java's ConsumerHeartbeatRequestManager): sends what changed, hands a successful
 * answer (member epoch, target assignment) to the member, and says when the next is due: the interval the
 * coordinator asked for, a backoff after a failure, null to stop (fenced, fatal). After any failure the next
 * request carries every field again.
 */
export class ConsumerHeartbeat {
  private readonly requests: HeartbeatRequestBuilder;
  private failures = 0;
  private lastReported: string | undefined;

  constructor(
    private readonly transport: GroupTransport,
    private readonly options: ResolvedOptions,
    private readonly member: HeartbeatingMember,
  ) {
    this.requests = new HeartbeatRequestBuilder(options);
  }

  /** The next heartbeat carries every field (a join). */
  reset(): void {
    this.requests.reset();
  }

  async beat(): Promise<number | null> {
    const snapshot = this.member.snapshot();
    if (snapshot === undefined) return null;
    const request = this.requests.build(snapshot);
    let response: ConsumerGroupHeartbeatResponse;
    try {
      response = await this.transport.request(ConsumerGroupHeartbeat, () => request, {
        timeoutMs: this.options.requestTimeoutMs,
      });
    } catch (err) {
      this.requests.reset();
      if (err instanceof UnsupportedVersionError) {
        const unsupported = new GroupProtocolUnsupportedError(this.options.groupId, 'no ConsumerGroupHeartbeat', err);
        this.member.failed({ kind: 'fatal', error: unsupported });
        return null;
      }
      return backoffDelay(++this.failures, this.options.retryBackoff);
    }
    // Re-read after the await: leave(), a fence or a poll timeout may have come meanwhile.
    const current = this.member.current(snapshot.memberEpoch);
    if (current === 'stop') return null;
    if (!current) return 0;
    if (response.errorCode !== 0) return this.answeredWithError(response.errorCode, response.errorMessage);
    this.failures = 0;
    this.lastReported = undefined;
    this.member.accepted(response);
    return response.heartbeatIntervalMs > 0 ? response.heartbeatIntervalMs : this.options.heartbeatIntervalMs;
  }

  /** Leaves with epoch -1, or -2 for a static member that will be back; best effort. */
  async leave(memberId: string, epoch: number): Promise<void> {
    try {
      await this.transport.request(ConsumerGroupHeartbeat, () => this.requests.leave(memberId, epoch), {
        timeoutMs: Math.min(this.options.requestTimeoutMs, LEAVE_TIMEOUT_MS),
      });
    } catch {
      // The coordinator drops the member after its session timeout anyway.
    }
  }

  private answeredWithError(code: number, message: string | null): number | null {
    this.requests.reset();
    const { groupId, groupInstanceId } = this.options;
    const err = kafkaError(code, { message, context: { api: 'ConsumerGroupHeartbeat', groupId } });
    if (err.errorName === 'UNSUPPORTED_VERSION') {
      const error = new GroupProtocolUnsupportedError(groupId, 'group.protocol=consumer is not enabled', err);
      this.member.failed({ kind: 'fatal', error });
      return null;
    }
    const recovery = recoveryFor(err, groupId, groupInstanceId);
    switch (recovery.kind) {
      case 'fenced':
      case 'stale-generation':
      case 'fatal':
        this.member.failed(recovery);
        return null;
      case 'report':
        // Reported once per run of the same failure, not at every retry.
        if (this.lastReported !== recovery.error.message) this.member.failed(recovery);
        this.lastReported = recovery.error.message;
        return this.options.retryBackoff.maxMs;
      case 'retry':
        return backoffDelay(++this.failures, this.options.retryBackoff);
    }
  }
}
