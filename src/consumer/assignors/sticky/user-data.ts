import { JavaHashMap, javaStringHash } from '../java-hash.js';

/**
 * The userData that Kafka's sticky assignors put in a subscription, in
 * Kafka's own (pre-generated-message) `Schema`/`Struct` encoding, big-endian:
 *
 *   sticky V1:  previous_assignment: ARRAY(INT32 count) of
 *                 { topic: STRING(INT16 length, UTF-8), partitions: ARRAY of INT32 }
 *               generation: INT32
 *   sticky V0:  previous_assignment only (clients before KIP-341)
 *   cooperative-sticky V0: generation: INT32
 *
 * Readers ignore trailing bytes, as Kafka's do.
 */

/** The generation Kafka reports when it has none (`AbstractStickyAssignor.DEFAULT_GENERATION`). */
export const DEFAULT_GENERATION = -1;

export interface StickyUserData {
  /** The member's partitions in the previous assignment. */
  partitions: Array<{ topic: string; partition: number }>;
  /** Undefined when the data had none (V0). */
  generation: number | undefined;
}

/**
 * `StickyAssignor.serializeTopicPartitionAssignment`: V1, partitions grouped
 * by topic, topics in the order Java's HashMap yields them (so the bytes are
 * Java's bytes), partitions in the order given.
 */
export function encodeStickyUserData(data: StickyUserData): Buffer {
  const byTopic = new JavaHashMap<string, number[]>(javaStringHash);
  for (const tp of data.partitions) byTopic.computeIfAbsent(tp.topic, () => []).push(tp.partition);
  const entries = byTopic.entries();
  let size = 4 + 4;
  const names = entries.map(([topic]) => Buffer.from(topic, 'utf8'));
  for (let i = 0; i < entries.length; i++) size += 2 + names[i].length + 4 + 4 * entries[i][1].length;
  const buf = Buffer.alloc(size);
  let o = buf.writeInt32BE(entries.length, 0);
  for (let i = 0; i < entries.length; i++) {
    if (names[i].length > 0x7fff) throw new RangeError(`topic name too long for sticky userData: ${entries[i][0]}`);
    o = buf.writeInt16BE(names[i].length, o);
    o += names[i].copy(buf, o);
    o = buf.writeInt32BE(entries[i][1].length, o);
    for (const p of entries[i][1]) o = buf.writeInt32BE(p, o);
  }
  buf.writeInt32BE(data.generation ?? DEFAULT_GENERATION, o);
  return buf;
}

/**
 * `StickyAssignor.memberData` from the userData bytes: V1, else V0, else (bad
 * bytes) nothing owned with the default generation. No userData, or none
 * left, means nothing owned and no generation.
 */
export function decodeStickyUserData(bytes: Uint8Array | null | undefined): StickyUserData {
  if (bytes === null || bytes === undefined || bytes.length === 0) return { partitions: [], generation: undefined };
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const v1 = readAssignment(buf, true);
  if (v1 !== undefined) return v1;
  return readAssignment(buf, false) ?? { partitions: [], generation: DEFAULT_GENERATION };
}

function readAssignment(buf: Buffer, withGeneration: boolean): StickyUserData | undefined {
  const r = new StructReader(buf);
  const partitions: Array<{ topic: string; partition: number }> = [];
  const topics = r.arraySize();
  if (topics === undefined) return undefined;
  for (let i = 0; i < topics; i++) {
    const topic = r.string();
    const count = r.arraySize();
    if (topic === undefined || count === undefined) return undefined;
    for (let j = 0; j < count; j++) {
      const partition = r.int32();
      if (partition === undefined) return undefined;
      partitions.push({ topic, partition });
    }
  }
  if (!withGeneration) return { partitions, generation: undefined };
  const generation = r.int32();
  return generation === undefined ? undefined : { partitions, generation };
}

/** `CooperativeStickyAssignor.subscriptionUserData`: the member's last generation. */
export function encodeCooperativeUserData(generation: number): Buffer {
  const buf = Buffer.alloc(4);
  buf.writeInt32BE(generation, 0);
  return buf;
}

/** The generation in cooperative-sticky userData; DEFAULT_GENERATION for unreadable bytes, undefined for none. */
export function decodeCooperativeUserData(bytes: Uint8Array | null | undefined): number | undefined {
  if (bytes === null || bytes === undefined) return undefined;
  if (bytes.length < 4) return DEFAULT_GENERATION;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readInt32BE(0);
}

/** Kafka's `Type` readers: undefined where Kafka throws (underflow, negative sizes, sizes past the end). */
class StructReader {
  private o = 0;
  constructor(private readonly buf: Buffer) {}

  int32(): number | undefined {
    if (this.o + 4 > this.buf.length) return undefined;
    const v = this.buf.readInt32BE(this.o);
    this.o += 4;
    return v;
  }

  arraySize(): number | undefined {
    const n = this.int32();
    // Kafka rejects a count larger than the bytes left before reading any element.
    if (n === undefined || n < 0 || n > this.buf.length - this.o) return undefined;
    return n;
  }

  string(): string | undefined {
    if (this.o + 2 > this.buf.length) return undefined;
    const n = this.buf.readInt16BE(this.o);
    this.o += 2;
    if (n < 0 || n > this.buf.length - this.o) return undefined;
    const s = this.buf.toString('utf8', this.o, this.o + n);
    this.o += n;
    return s;
  }
}
