/**
 * The embedded consumer-protocol messages (subscription, assignment) the group API tests put into JoinGroup and
 * SyncGroup, built with the codecs under test.
 */
import { Writer } from '../../../codecs/writer.js';
import { ConsumerProtocolAssignment, ConsumerProtocolSubscription } from '../../../protocol/apis/consumer-protocol.js';
import { type MessageCodec, messageCodec } from '../../../protocol/codec.js';

/** An embedded consumer-protocol message as JoinGroup / SyncGroup carry it: int16 version, then the body. */
export function embedded<I>(codec: MessageCodec<unknown, I>, value: I): Buffer {
  const w = new Writer();
  w.int16(codec.version);
  codec.encode(w, value);
  return w.toBuffer();
}

export const SUBSCRIPTION = embedded(messageCodec(ConsumerProtocolSubscription, 1), {
  topics: ['orders', 'payments'],
  ownedPartitions: [{ topic: 'orders', partitions: [0] }],
});
export const ASSIGNMENT = embedded(messageCodec(ConsumerProtocolAssignment, 0), {
  assignedPartitions: [{ topic: 'orders', partitions: [0, 1] }],
});
