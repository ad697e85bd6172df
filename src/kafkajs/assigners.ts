/**
 * kafkajs's `PartitionAssigners` and `AssignerProtocol`. `PartitionAssigners.roundRobin` is the core's
 * KafkajsRoundRobinAssignor (kafkajs's protocol name, member metadata and assignment bytes), the facade's
 * default as it is kafkajs's, so kafkajs and tidemark members can share a group during a rolling deploy.
 * `AssignerProtocol` encodes and decodes those bytes exactly as kafkajs does, for programs that use it.
 */
import { KafkajsRoundRobinAssignor, type PartitionAssignor } from '../index.js';
import { KafkaJSNonRetriableError } from './errors.js';

/** A kafkajs assigner factory as `partitionAssigners` lists it: `({ cluster }) => assigner`. */
export type PartitionAssigner = (config: { cluster: unknown }) => {
  name: string;
  version: number;
  [key: string]: unknown;
};

/** kafkajs's round-robin assigner; on tidemark it stands for the core's kafkajs-compatible assignor. */
const roundRobin: PartitionAssigner = () => {
  const core = new KafkajsRoundRobinAssignor();
  return { name: core.name, version: core.version };
};

/** kafkajs's built-in partition assigners. */
export const PartitionAssigners = { roundRobin };

/**
 * The core assignors for a consumer's `partitionAssigners` (default: round robin, as kafkajs). Assigners
 * written against kafkajs's interface run kafkajs's cluster object and an asynchronous `assign`, which the
 * core's synchronous leader cannot host: they fail here, naming the option, rather than being dropped.
 */
export function coreAssignors(assigners: readonly unknown[] | undefined): PartitionAssignor[] {
  if (assigners === undefined || assigners.length === 0) return [new KafkajsRoundRobinAssignor()];
  return assigners.map((a) => {
    if (a === roundRobin) return new KafkajsRoundRobinAssignor();
    throw new KafkaJSNonRetriableError(
      'partitionAssigners: tidemark/kafkajs supports PartitionAssigners.roundRobin only (custom assigners are not supported)',
    );
  });
}

class Writer {
  private readonly parts: Buffer[] = [];
  int16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    this.parts.push(b);
    return this;
  }
  int32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    this.parts.push(b);
    return this;
  }
  string(s: string): this {
    const b = Buffer.from(s, 'utf8');
    this.int16(b.length);
    this.parts.push(b);
    return this;
  }
  bytes(b: Buffer): this {
    this.int32(b.length);
    this.parts.push(b);
    return this;
  }
  buffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** Reads kafkajs's fields; a length past the end is a typed error, never a raw RangeError. */
class Reader {
  private offset = 0;
  constructor(private readonly buf: Buffer) {}
  private need(n: number, field: string): void {
    if (n < 0 || this.offset + n > this.buf.length) {
      throw new KafkaJSNonRetriableError(`AssignerProtocol: ${field} runs past the end at byte ${this.offset}`);
    }
  }
  canReadInt16(): boolean {
    return this.offset + 2 <= this.buf.length;
  }
  int16(field: string): number {
    this.need(2, field);
    const v = this.buf.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }
  int32(field: string): number {
    this.need(4, field);
    const v = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  string(field: string): string {
    const n = this.int16(field);
    this.need(n, field);
    const s = this.buf.toString('utf8', this.offset, this.offset + n);
    this.offset += n;
    return s;
  }
  bytes(field: string): Buffer | null {
    const n = this.int32(field);
    if (n === -1) return null;
    this.need(n, field);
    const b = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return b;
  }
  array<T>(field: string, item: () => T): T[] {
    const n = this.int32(field);
    if (n <= 0) return [];
    // Every element takes at least 2 bytes: a count beyond that is corrupt, not an allocation to try.
    this.need(n * 2, field);
    return Array.from({ length: n }, item);
  }
}

/** kafkajs's `AssignerProtocol`: the classic consumer protocol's member metadata and assignment, as kafkajs writes them. */
export const AssignerProtocol = {
  MemberMetadata: {
    encode({ version, topics, userData = Buffer.alloc(0) }: { version: number; topics: string[]; userData?: Buffer }) {
      const w = new Writer().int16(version).int32(topics.length);
      for (const t of topics) w.string(t);
      return w.bytes(userData).buffer();
    },
    decode(buffer: Buffer): { version: number; topics: string[]; userData: Buffer | null } {
      const r = new Reader(buffer);
      return {
        version: r.int16('version'),
        topics: r.array('topics', () => r.string('topic')),
        userData: r.bytes('userData'),
      };
    },
  },
  MemberAssignment: {
    encode({
      version,
      assignment,
      userData = Buffer.alloc(0),
    }: {
      version: number;
      assignment: Record<string, number[]>;
      userData?: Buffer;
    }) {
      const w = new Writer().int16(version).int32(Object.keys(assignment).length);
      for (const [topic, partitions] of Object.entries(assignment)) {
        w.string(topic).int32(partitions.length);
        for (const p of partitions) w.int32(p);
      }
      return w.bytes(userData).buffer();
    },
    /** `null` for bytes too short to hold a version, as kafkajs (a member its leader left out gets none). */
    decode(buffer: Buffer): { version: number; assignment: Record<string, number[]>; userData: Buffer | null } | null {
      const r = new Reader(buffer);
      if (!r.canReadInt16()) return null;
      const version = r.int16('version');
      const assignment: Record<string, number[]> = {};
      for (const { topic, partitions } of r.array('assignment', () => ({
        topic: r.string('topic'),
        partitions: r.array('partitions', () => r.int32('partition')),
      }))) {
        assignment[topic] = partitions;
      }
      return { version, assignment, userData: r.bytes('userData') };
    },
  },
};
