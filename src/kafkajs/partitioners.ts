/**
 * kafkajs's partitioners. Both share kafkajs's choice for records without a key (round robin over the
 * partitions that have a leader, from a random start per topic) and differ in the key hash:
 * `DefaultPartitioner` uses Java's murmur2 (the core's, so keyed records land where the Java client and the
 * core producer put them); `LegacyPartitioner` ports kafkajs 1.x's murmur2 as written, float arithmetic and
 * all, because programs that kept it rely on its (non-Java) partitions.
 */
import { randomBytes } from 'node:crypto';
import { type PartitionMetadata as CorePartitionMetadata, murmur2 as javaMurmur2 } from '../index.js';

export interface PartitionMetadata {
  partitionErrorCode: number;
  partitionId: number;
  leader: number;
  replicas: number[];
  isr: number[];
  offlineReplicas?: number[];
}

/** A core partition's metadata in kafkajs's shape (what partitioners and fetchTopicMetadata see). */
export function partitionMetadataOf(p: CorePartitionMetadata): PartitionMetadata {
  return {
    partitionErrorCode: p.error?.code ?? 0,
    partitionId: p.partition,
    leader: p.leader,
    replicas: p.replicas,
    isr: p.isr,
    offlineReplicas: p.offlineReplicas,
  };
}

export interface PartitionerArgs {
  topic: string;
  partitionMetadata: PartitionMetadata[];
  message: { key?: Buffer | string | null; partition?: number | null };
}

export type ICustomPartitioner = () => (args: PartitionerArgs) => number;

const toPositive = (x: number) => x & 0x7fffffff;

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** kafkajs's legacy murmur2: a transcription of its JavaScript, whose `*` on doubles is not Java's int math. */
export function legacyMurmur2(key: Buffer | string): number {
  const data = Buffer.isBuffer(key) ? key : Buffer.from(String(key));
  const length = data.length;
  let h = SEED ^ length;
  const length4 = length / 4;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k =
      (data[i4 + 0] & 0xff) +
      ((data[i4 + 1] & 0xff) << 8) +
      ((data[i4 + 2] & 0xff) << 16) +
      ((data[i4 + 3] & 0xff) << 24);
    k *= M;
    k ^= k >>> R;
    k *= M;
    h *= M;
    h ^= k;
  }
  const rest = length % 4;
  if (rest === 3) h ^= (data[(length & ~3) + 2] & 0xff) << 16;
  if (rest >= 2) h ^= (data[(length & ~3) + 1] & 0xff) << 8;
  if (rest >= 1) {
    h ^= data[length & ~3] & 0xff;
    h *= M;
  }
  h ^= h >>> 13;
  h *= M;
  h ^= h >>> 15;
  return h;
}

function javaHash(key: Buffer | string): number {
  return javaMurmur2(Buffer.isBuffer(key) ? key : Buffer.from(String(key)));
}

function partitionerWith(hash: (key: Buffer | string) => number): ICustomPartitioner {
  return () => {
    const counters: Record<string, number> = {};
    return ({ topic, partitionMetadata, message }) => {
      if (!(topic in counters)) counters[topic] = randomBytes(32).readUInt32BE(0);
      const numPartitions = partitionMetadata.length;
      const available = partitionMetadata.filter((p) => p.leader >= 0);
      if (message.partition !== null && message.partition !== undefined) return message.partition;
      if (message.key !== null && message.key !== undefined) return toPositive(hash(message.key)) % numPartitions;
      if (available.length > 0) return available[toPositive(++counters[topic]) % available.length].partitionId;
      return toPositive(++counters[topic]) % numPartitions;
    };
  };
}

export const DefaultPartitioner: ICustomPartitioner = partitionerWith(javaHash);
export const LegacyPartitioner: ICustomPartitioner = partitionerWith(legacyMurmur2);

export const Partitioners = {
  DefaultPartitioner,
  LegacyPartitioner,
  /** @deprecated kafkajs's old name for DefaultPartitioner. */
  JavaCompatiblePartitioner: DefaultPartitioner,
};
