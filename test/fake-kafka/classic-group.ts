/**
 * A classic consumer group as the fake's coordinator keeps it (after franz-go kfake's groups.go and Kafka's
 * ClassicGroup): members with their protocols, a generation, a leader, and the states Empty,
 * PreparingRebalance, CompletingRebalance and Stable. A JoinGroup parks until every known member has rejoined
 * (or the rebalance timeout removes the ones that did not); a SyncGroup parks until the leader sent the
 * assignment. Session timeouts remove a member that stops heartbeating. The API files (join-group.ts,
 * sync-group.ts, heartbeat.ts, leave-group.ts) validate the requests and drive this state.
 */
import { ErrorCode } from '../../protocol/error-codes.js';

export type ClassicState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable';

export interface ClassicMember {
  memberId: string;
  groupInstanceId: string | null;
  protocols: { name: string; metadata: Buffer }[];
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** The JoinGroup this member waits in during a rebalance (answered when the round completes). */
  joining?: { version: number; resolve: (answer: unknown) => void };
  /** The SyncGroup this member waits in until the leader's assignment arrives. */
  syncing?: (answer: unknown) => void;
  assignment: Buffer;
  session?: ReturnType<typeof setTimeout>;
}

export class ClassicGroup {
  state: ClassicState = 'Empty';
  generation = 0;
  leader: string | null = null;
  protocolName: string | null = null;
  readonly members = new Map<string, ClassicMember>();
  /** Member ids handed out with MEMBER_ID_REQUIRED, not members until they join with it. */
  readonly pending = new Set<string>();
  private rebalanceTimer: ReturnType<typeof setTimeout> | undefined;
  private nextMember = 1;

  constructor(readonly groupId: string) {}

  newMemberId(): string {
    return `${this.groupId}-member-${this.nextMember++}`;
  }

  /** Puts a member in a stable group of `generation`, as if it had joined and synced (for tests of commits). */
  seat(memberId: string, generation: number, groupInstanceId: string | null = null): void {
    this.members.set(memberId, {
      memberId,
      groupInstanceId,
      protocols: [],
      sessionTimeoutMs: 0,
      rebalanceTimeoutMs: 0,
      assignment: Buffer.alloc(0),
    });
    this.generation = generation;
    this.leader ??= memberId;
    this.state = 'Stable';
  }

  memberOfInstance(groupInstanceId: string | null): ClassicMember | undefined {
    if (groupInstanceId === null) return undefined;
    return [...this.members.values()].find((m) => m.groupInstanceId === groupInstanceId);
  }

  /** Starts a rebalance (once): every member must rejoin within the longest rebalance timeout. */
  prepareRebalance(): void {
    if (this.state === 'PreparingRebalance') return;
    // A member parked in SyncGroup of the generation that will not complete is told to rejoin.
    for (const m of this.members.values()) this.answerSync(m, { errorCode: ErrorCode.REBALANCE_IN_PROGRESS });
    this.state = 'PreparingRebalance';
    const timeoutMs = Math.max(0, ...[...this.members.values()].map((m) => m.rebalanceTimeoutMs));
    clearTimeout(this.rebalanceTimer);
    this.rebalanceTimer = setTimeout(() => this.completeJoin(true), timeoutMs);
    this.rebalanceTimer.unref?.();
  }

  /** Completes the join round if every member has rejoined (or, at the timeout, drops those who did not). */
  completeJoin(timedOut = false): void {
    if (this.state !== 'PreparingRebalance') return;
    const waiting = [...this.members.values()].filter((m) => m.joining === undefined);
    if (waiting.length > 0 && !timedOut) return;
    for (const m of waiting) this.remove(m.memberId, false);
    clearTimeout(this.rebalanceTimer);
    this.rebalanceTimer = undefined;
    if (this.members.size === 0) {
      this.toEmpty();
      return;
    }
    this.generation++;
    this.state = 'CompletingRebalance';
    const members = [...this.members.values()];
    if (this.leader === null || !this.members.has(this.leader)) this.leader = members[0].memberId;
    this.protocolName = this.chooseProtocol(members);
    for (const m of members) {
      const joining = m.joining!;
      m.joining = undefined;
      joining.resolve(this.joinAnswer(m, joining.version));
    }
  }

  /** The JoinGroup answer of a member of the current generation (the leader gets every member's metadata). */
  joinAnswer(m: ClassicMember, _version: number, skipAssignment = false): unknown {
    const isLeader = m.memberId === this.leader;
    return {
      throttleTimeMs: 0,
      errorCode: 0,
      generationId: this.generation,
      protocolType: 'consumer',
      protocolName: this.protocolName,
      leader: this.leader,
      skipAssignment,
      memberId: m.memberId,
      members: isLeader
        ? [...this.members.values()].map((o) => ({
            memberId: o.memberId,
            groupInstanceId: o.groupInstanceId,
            metadata: o.protocols.find((p) => p.name === this.protocolName)?.metadata ?? Buffer.alloc(0),
          }))
        : [],
    };
  }

  /** The leader's assignment arrived: the group is stable, every parked SyncGroup is answered. */
  assign(assignments: Map<string, Buffer>): void {
    for (const m of this.members.values()) m.assignment = assignments.get(m.memberId) ?? Buffer.alloc(0);
    this.state = 'Stable';
    for (const m of this.members.values()) this.answerSync(m, this.syncAnswer(m));
  }

  syncAnswer(m: ClassicMember): object {
    return {
      throttleTimeMs: 0,
      errorCode: 0,
      protocolType: 'consumer',
      protocolName: this.protocolName,
      assignment: m.assignment,
    };
  }

  answerSync(m: ClassicMember, answer: object): void {
    const syncing = m.syncing;
    m.syncing = undefined;
    syncing?.({ throttleTimeMs: 0, protocolType: null, protocolName: null, assignment: Buffer.alloc(0), ...answer });
  }

  /** Removes a member (left, fenced or timed out); the rest rebalance, or the group becomes Empty. */
  remove(memberId: string, rebalance = true): void {
    const m = this.members.get(memberId);
    if (m === undefined) return;
    clearTimeout(m.session);
    this.members.delete(memberId);
    m.joining?.resolve({ ...this.errorJoin(ErrorCode.UNKNOWN_MEMBER_ID), memberId });
    this.answerSync(m, { errorCode: ErrorCode.UNKNOWN_MEMBER_ID });
    if (this.leader === memberId) this.leader = null;
    if (!rebalance) return;
    if (this.members.size === 0) this.toEmpty();
    else if (this.state === 'PreparingRebalance') this.completeJoin();
    else this.prepareRebalance();
  }

  /** (Re)starts the member's session: if no heartbeat, join or sync comes within it, the member is removed. */
  touch(m: ClassicMember): void {
    clearTimeout(m.session);
    m.session = setTimeout(() => this.remove(m.memberId), m.sessionTimeoutMs);
    m.session.unref?.();
  }

  errorJoin(errorCode: number): object {
    return {
      throttleTimeMs: 0,
      errorCode,
      generationId: -1,
      protocolType: null,
      protocolName: null,
      leader: '',
      skipAssignment: false,
      memberId: '',
      members: [],
    };
  }

  private toEmpty(): void {
    clearTimeout(this.rebalanceTimer);
    this.state = 'Empty';
    this.leader = null;
    this.protocolName = null;
    this.generation++;
  }

  /** The protocol every member supports that most members prefer (Kafka's vote), ties to the leader's order. */
  private chooseProtocol(members: ClassicMember[]): string {
    const common = members[0].protocols
      .map((p) => p.name)
      .filter((name) => members.every((m) => m.protocols.some((p) => p.name === name)));
    const votes = new Map(common.map((name) => [name, 0]));
    for (const m of members) {
      const first = m.protocols.find((p) => votes.has(p.name));
      if (first !== undefined) votes.set(first.name, votes.get(first.name)! + 1);
    }
    return [...votes].sort((a, b) => b[1] - a[1])[0][0];
  }
}
