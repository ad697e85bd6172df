import type { PartitionMetadata } from '../cluster/metadata.js';
import { partitionForKey } from './murmur2.js';

/**
 * A user partitioner: returns the partition for a record, or undefined to leave the choice to the default
 * (murmur2 for keyed records, sticky for the rest).
 */
export type Partitioner = (record: {
  topic: string;
  key: Buffer | null;
  value: Buffer | null;
  partitionCount: number;
}) => number | undefined;

interface StickyChoice {
  partition: number;
  /** Bytes appended to this partition since it was chosen. */
  producedBytes: number;
}

/**
 * Where unkeyed records go: the built-in partitioner of Kafka 3.3+ (KIP-794, successor of KIP-480's sticky
 * partitioner). All unkeyed records of a topic go to one partition until about a batch's worth of bytes has
 * been produced to it, then a random partition with a leader is chosen. Sticking fills batches, so there are
 * fewer, larger requests; switching by bytes rather than by record count keeps the load even.
 *
 * As in Java, a switch waits for the partition's batches to be full (so a high linger does not leave fractional
 * batches behind) but never beyond twice the batch size. Java's adaptive mode (weighting by queue length) is not
 * implemented: partitions are chosen uniformly.
 */
export class StickyPartitioner {
  private readonly sticky = new Map<string, StickyChoice>();

  constructor(
    private readonly batchSize: number,
    private readonly random: () => number = Math.random,
  ) {}

  /** The partition an unkeyed record of `topic` goes to now. */
  partition(topic: string, partitions: readonly PartitionMetadata[]): number {
    let choice = this.sticky.get(topic);
    if (choice === undefined || choice.partition >= partitions.length) {
      choice = { partition: this.next(partitions), producedBytes: 0 };
      this.sticky.set(topic, choice);
    }
    return choice.partition;
  }

  /**
   * Counts bytes appended to the sticky partition and switches once enough has gone to it. `switchAllowed` says
   * whether a switch now loses no batching (the record opened a batch, or filled one).
   */
  onAppend(
    topic: string,
    partition: number,
    bytes: number,
    switchAllowed: boolean,
    partitions: readonly PartitionMetadata[],
  ): void {
    const choice = this.sticky.get(topic);
    if (choice === undefined || choice.partition !== partition) return;
    choice.producedBytes += bytes;
    if ((choice.producedBytes >= this.batchSize && switchAllowed) || choice.producedBytes >= this.batchSize * 2) {
      this.sticky.set(topic, { partition: this.next(partitions), producedBytes: 0 });
    }
  }

  /** Bytes counted towards the current sticky partition of `topic` (for tests). */
  producedBytesForTest(topic: string): number {
    return this.sticky.get(topic)?.producedBytes ?? 0;
  }

  /** A random partition that has a leader; any partition when none has. */
  private next(partitions: readonly PartitionMetadata[]): number {
    const available = partitions.filter((p) => p.leader >= 0);
    const from = available.length > 0 ? available : partitions;
    return from[Math.floor(this.random() * from.length)].partition;
  }
}

/** Kafka's default choice for a keyed record; exported for callers that need to predict placement. */
export { partitionForKey };
