/** tidemark/kafkajs's AssignerProtocol and PartitionAssigners against kafkajs 2.2.4's own (bytes and behaviour). */
import * as kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { KafkajsRoundRobinAssignor } from '../../../src/index.js';
import { coreAssignors } from '../../../src/kafkajs/assigners.js';
import { AssignerProtocol, KafkaJSNonRetriableError, PartitionAssigners } from '../../../src/kafkajs/index.js';

describe('AssignerProtocol', () => {
  const metadata = { version: 0, topics: ['a', 'ü-topic'], userData: Buffer.from([1, 2, 3]) };
  const assignment = { version: 1, assignment: { a: [0, 3], b: [2] }, userData: Buffer.from('x') };

  it('writes the bytes kafkajs writes, and reads them back as kafkajs does', () => {
    const ours = AssignerProtocol.MemberMetadata.encode(metadata);
    expect(ours).toEqual(kafkajs.AssignerProtocol.MemberMetadata.encode(metadata));
    expect(AssignerProtocol.MemberMetadata.decode(ours)).toEqual(kafkajs.AssignerProtocol.MemberMetadata.decode(ours));
    const bytes = AssignerProtocol.MemberAssignment.encode(assignment);
    expect(bytes).toEqual(kafkajs.AssignerProtocol.MemberAssignment.encode(assignment));
    expect(AssignerProtocol.MemberAssignment.decode(bytes)).toEqual(assignment);
    expect(AssignerProtocol.MemberAssignment.decode(Buffer.alloc(0))).toBeNull();
  });

  it('refuses truncated or oversized input with a typed error naming the field', () => {
    const bytes = AssignerProtocol.MemberMetadata.encode(metadata);
    expect(() => AssignerProtocol.MemberMetadata.decode(bytes.subarray(0, 8))).toThrow(KafkaJSNonRetriableError);
    const huge = Buffer.from([0, 0, 0x7f, 0xff, 0xff, 0xff]);
    expect(() => AssignerProtocol.MemberAssignment.decode(huge)).toThrow(/assignment runs past the end at byte 6/);
  });
});

describe('partitionAssigners', () => {
  it("defaults to kafkajs's round robin, and maps PartitionAssigners.roundRobin to it", () => {
    expect(coreAssignors(undefined)[0]).toBeInstanceOf(KafkajsRoundRobinAssignor);
    expect(coreAssignors([PartitionAssigners.roundRobin])[0].name).toBe('RoundRobinAssigner');
  });

  it('refuses an assigner the core cannot host, naming the option', () => {
    expect(() => coreAssignors([kafkajs.PartitionAssigners.roundRobin])).toThrow(/partitionAssigners/);
  });
});
