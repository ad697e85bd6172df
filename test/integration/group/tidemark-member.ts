/** A tidemark member in this process, driven through GroupMembership alone (no fetching), as tests see it. */
import { Client } from '../../../src/client.js';
import {
  createGroupMembership,
  type GroupMembership,
  type GroupMembershipOptions,
  type RebalanceEvent,
} from '../../../src/consumer/group/index.js';
import type { OwnershipLedger, TrackedMember } from './tracker.js';

export class TidemarkMember implements TrackedMember {
  readonly events: RebalanceEvent[] = [];
  readonly errors: Error[] = [];
  readonly membership: GroupMembership;
  readonly client: Client;
  private poller: NodeJS.Timeout | undefined;

  constructor(
    readonly name: string,
    bootstrap: string,
    options: GroupMembershipOptions,
    private readonly ledger?: OwnershipLedger,
  ) {
    this.client = new Client({ bootstrap, clientId: name, requestTimeoutMs: 15_000 });
    this.membership = createGroupMembership(this.client.cluster, this.client.coordinators, options);
    this.membership.on('rebalance', (e) => this.events.push(e));
    this.membership.on('error', (e) => this.errors.push(e));
  }

  /**
   * Joins and keeps "polling" (notePoll each 200 ms), as an application that processes quickly does; with
   * `poll: false` it never polls (the max poll interval tests).
   */
  async start(topics: string[], { poll = true }: { poll?: boolean } = {}): Promise<this> {
    await this.membership.start(
      { topics },
      {
        onAssigned: (ps) =>
          this.ledger?.assigned(
            this.name,
            ps.map((p) => p.partition),
          ),
        onRevoked: (ps) =>
          this.ledger?.released(
            this.name,
            ps.map((p) => p.partition),
          ),
        onLost: (ps) =>
          this.ledger?.released(
            this.name,
            ps.map((p) => p.partition),
          ),
      },
    );
    if (!poll) return this;
    this.poller = setInterval(() => {
      try {
        this.membership.notePoll();
      } catch (err) {
        this.errors.push(err as Error);
      }
    }, 200);
    return this;
  }

  owned(): number[] {
    return this.membership.assignment().map((p) => p.partition);
  }

  generation(): number {
    return this.events.at(-1)?.generationId ?? -1;
  }

  isStable(): boolean {
    return this.membership.state === 'stable';
  }

  async close(options?: { evenIfStatic?: boolean }): Promise<void> {
    clearInterval(this.poller);
    await this.membership.leave(options);
    await this.client.close();
  }
}

export async function startMembers(
  names: readonly string[],
  bootstrap: string,
  options: (name: string) => GroupMembershipOptions,
  topic: string,
  ledger?: OwnershipLedger,
): Promise<TidemarkMember[]> {
  return Promise.all(names.map((n) => new TidemarkMember(n, bootstrap, options(n), ledger).start([topic])));
}
