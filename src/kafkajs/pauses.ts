/**
 * kafkajs's pause and resume on the core consumer: a topic paused as a whole stays paused (every partition, now
 * and after rebalances) until resumed, as do single paused partitions; what kafkajs says is paused is applied to
 * the core for the partitions it holds now, and again to every assignment (`toPause`).
 */
import type { Consumer as CoreConsumer, TopicPartition } from '../index.js';
import { KafkaJSNonRetriableError } from './errors.js';

/** Topics (and optionally some of their partitions) to pause or resume, as kafkajs names them. */
export type TopicPartitions = { topic: string; partitions?: number[] };

export const partitionKey = (topic: string, partition: number) => `${topic}\0${partition}`;

export class Pauses {
  /** Topics paused as a whole, and single paused partitions. */
  private readonly topics = new Set<string>();
  private readonly partitions = new Set<string>();
  /** Every pause so far (the Runner checks for a paused partition only after one). */
  count = 0;

  /** Records kafkajs's pause or resume of `topics`, and applies it to what `core` holds now. */
  apply(core: CoreConsumer | undefined, topics: TopicPartitions[], pause: boolean): void {
    if (pause) this.count++;
    const affected: TopicPartition[] = [];
    const assigned = core?.assignment() ?? [];
    for (const { topic, partitions } of topics) {
      if (typeof topic !== 'string') throw new KafkaJSNonRetriableError(`Invalid topic ${String(topic)}`);
      if (partitions === undefined) {
        if (pause) this.topics.add(topic);
        else this.topics.delete(topic);
        for (const p of assigned) {
          if (p.topic === topic) this.partitions.delete(partitionKey(topic, p.partition));
        }
        affected.push(...assigned.filter((p) => p.topic === topic));
      } else {
        for (const partition of partitions) {
          if (pause) this.partitions.add(partitionKey(topic, partition));
          else this.partitions.delete(partitionKey(topic, partition));
          if (assigned.some((p) => p.topic === topic && p.partition === partition)) affected.push({ topic, partition });
        }
      }
    }
    if (affected.length === 0 || core === undefined) return;
    if (pause) core.pause(affected);
    else core.resume(affected.filter((p) => !this.topics.has(p.topic)));
  }

  /** Of an assignment, the partitions kafkajs says are paused. */
  toPause(assigned: readonly TopicPartition[]): TopicPartition[] {
    return assigned.filter((p) => this.topics.has(p.topic) || this.partitions.has(partitionKey(p.topic, p.partition)));
  }

  /** What `core` has paused, by topic, in kafkajs's shape. */
  static paused(core: CoreConsumer | undefined): { topic: string; partitions: number[] }[] {
    const byTopic = new Map<string, number[]>();
    for (const p of core?.paused() ?? []) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p.partition]);
    return [...byTopic].map(([topic, partitions]) => ({ topic, partitions: partitions.sort((a, b) => a - b) }));
  }
}
