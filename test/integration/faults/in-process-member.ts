/**
 * A group member in the test's own process, for joins and graceful leaves (chaos.test.ts): the same loop as
 * consumer-child.ts, recording into the shared ledger instead of a sink file. A real SIGKILL needs a
 * process of its own (ChildConsumer); these members are never killed.
 */
import { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { GroupMembershipOptions } from '../../../src/consumer/group/membership.js';
import type { SinkEntry } from './ledger.js';

export interface InProcessMemberConfig {
  run: number;
  bootstrap: string;
  topic: string;
  groupId: string;
  group: Omit<GroupMembershipOptions, 'groupId'>;
  autoCommitIntervalMs: number;
  msPerRecord: number;
}

export class InProcessMember {
  /** Set when the member lost partitions without revoking them (expired, fenced) or a commit was refused. */
  faulted = false;
  readonly problems: string[] = [];
  private readonly client: Client;
  private readonly consumer: Consumer;
  private readonly stop = new AbortController();
  private readonly loop: Promise<void>;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly config: InProcessMemberConfig,
    ledger: SinkEntry[],
  ) {
    this.client = new Client({
      bootstrap: config.bootstrap,
      clientId: `chaos-${config.run}`,
      requestTimeoutMs: 15_000,
    });
    this.consumer = new Consumer(this.client, {
      groupId: config.groupId,
      autoOffsetReset: 'earliest',
      autoCommitIntervalMs: config.autoCommitIntervalMs,
      maxPartitionFetchBytes: 4 * 1024,
      group: config.group,
    });
    const { run } = config;
    this.consumer.on('commit', (e) => {
      for (const o of e.offsets) ledger.push({ run, kind: 'c', partition: o.partition, offset: Number(o.offset) });
    });
    this.consumer.on('rebalance', (e) => {
      if (e.kind === 'lost') this.fault(`lost ${e.partitions.map((p) => p.partition).join(',')}`);
    });
    this.consumer.on('commit-failed', (e) => {
      if (!e.willRetry) this.fault(`commit failed: ${String(e.error)}`);
    });
    this.loop = this.read(ledger);
  }

  get run(): number {
    return this.config.run;
  }

  private fault(problem: string): void {
    this.faulted = true;
    this.problems.push(problem);
  }

  private async read(ledger: SinkEntry[]): Promise<void> {
    const { run, topic, msPerRecord } = this.config;
    try {
      await this.consumer.subscribe({ topics: [topic] }, { signal: this.stop.signal });
    } catch (err) {
      if (!this.stop.signal.aborted) this.problems.push(`subscribe failed: ${(err as Error).message}`);
      return;
    }
    // A group error is thrown once from the iterator (e.g. the member was fenced); the consumer rejoins on
    // its own, so reading goes on with a new loop, as an application's would.
    while (!this.stop.signal.aborted) {
      try {
        for await (const batch of this.consumer.batches({ signal: this.stop.signal })) {
          for (const r of batch.records)
            ledger.push({ run, kind: 'r', partition: r.partition, offset: Number(r.offset) });
          await new Promise((resolve) => setTimeout(resolve, Math.ceil(batch.records.length * msPerRecord)));
          batch.ack(); // processed; a break would otherwise leave the batch unprocessed
          if (this.stop.signal.aborted) break;
        }
      } catch (err) {
        if (this.stop.signal.aborted) break;
        this.fault(`iterator threw ${(err as Error).name}: ${(err as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Finishes the batch in hand, then closes: commits what was processed and leaves the group. */
  leave(): Promise<void> {
    this.closing ??= (async () => {
      this.stop.abort();
      await this.loop;
      await this.consumer.close().catch((err: Error) => this.problems.push(`close failed: ${err.message}`));
      await this.client.close();
    })();
    return this.closing;
  }
}
