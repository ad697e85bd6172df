import type { TP } from '../common.js';
import { JavaHashMap } from '../java-hash.js';

interface ConsumerPair {
  src: string;
  dst: string;
}

const pairKey = (src: string, dst: string) => JSON.stringify([src, dst]);

/**
 * Where partitions have moved during one general sticky assignment
 * (`AbstractStickyAssignor.PartitionMovements`), so that a move that would
 * undo an earlier one moves that earlier partition back instead of a second
 * partition of the same topic: stickiness between any two members.
 *
 * The partitions moved between a pair sit in a Java HashSet whose first
 * element is the one moved back, hence the HashSet's order here.
 */
export class PartitionMovements {
  private readonly byTopic = new Map<string, Map<string, { pair: ConsumerPair; partitions: JavaHashMap<TP, true> }>>();
  private readonly movements = new Map<TP, ConsumerPair>();

  private removeMovementRecordOfPartition(tp: TP): ConsumerPair {
    const pair = this.movements.get(tp)!;
    this.movements.delete(tp);
    const forTopic = this.byTopic.get(tp.topic)!;
    const key = pairKey(pair.src, pair.dst);
    const record = forTopic.get(key)!;
    record.partitions.delete(tp);
    if (record.partitions.size === 0) forTopic.delete(key);
    if (forTopic.size === 0) this.byTopic.delete(tp.topic);
    return pair;
  }

  private addPartitionMovementRecord(tp: TP, pair: ConsumerPair): void {
    this.movements.set(tp, pair);
    let forTopic = this.byTopic.get(tp.topic);
    if (forTopic === undefined) {
      forTopic = new Map();
      this.byTopic.set(tp.topic, forTopic);
    }
    const key = pairKey(pair.src, pair.dst);
    let record = forTopic.get(key);
    if (record === undefined) {
      record = { pair, partitions: new JavaHashMap<TP, true>((p) => p.hash) };
      forTopic.set(key, record);
    }
    record.partitions.set(tp, true);
  }

  movePartition(tp: TP, oldConsumer: string, newConsumer: string): void {
    if (this.movements.has(tp)) {
      // moved before: record one move from its first owner, or none if it is back there
      const existing = this.removeMovementRecordOfPartition(tp);
      if (existing.src !== newConsumer) this.addPartitionMovementRecord(tp, { src: existing.src, dst: newConsumer });
    } else {
      this.addPartitionMovementRecord(tp, { src: oldConsumer, dst: newConsumer });
    }
  }

  /**
   * The partition to move from `oldConsumer` to `newConsumer` in place of
   * `tp`: one of the same topic that moved the other way before, if any.
   */
  getTheActualPartitionToBeMoved(tp: TP, oldConsumer: string, newConsumer: string): TP {
    const forTopic = this.byTopic.get(tp.topic);
    if (forTopic === undefined) return tp;
    const previous = this.movements.get(tp);
    if (previous !== undefined) oldConsumer = previous.src;
    const reverse = forTopic.get(pairKey(newConsumer, oldConsumer));
    return reverse === undefined ? tp : reverse.partitions.first()!;
  }
}
