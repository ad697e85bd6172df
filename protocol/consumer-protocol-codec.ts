import { ProtocolError } from '../codecs/errors.js';
import { Reader } from '../codecs/reader.js';
import { Writer } from '../codecs/writer.js';
import { messageCodec } from './codec.js';
import type { Field, MessageDef, StructInput, StructValue } from './schema.js';

/**
 * The classic consumer protocol's embedded messages (ConsumerProtocolSubscription in JoinGroup
 * `protocols[].metadata` and DescribeGroups `memberMetadata`, ConsumerProtocolAssignment in SyncGroup
 * `assignment` and DescribeGroups `memberAssignment`): an int16 version, then the message at that version.
 * Here, below both the consumer's group membership and the admin client's group description, so that the two
 * read these bytes one way.
 */

/** What Kafka's Java client writes (`ConsumerProtocol.serializeSubscription/Assignment`), and the newest tidemark knows. */
export const CONSUMER_PROTOCOL_VERSION = 3;

export function encodeConsumerProtocol<F extends readonly Field[]>(
  def: MessageDef<F>,
  value: StructInput<F>,
  version = CONSUMER_PROTOCOL_VERSION,
): Buffer {
  const w = new Writer(128);
  w.int16(version);
  messageCodec(def, version).encode(w, value);
  return w.toBuffer();
}

/**
 * Reads the version and the message. A version newer than tidemark knows is read by the fields it knows, as
 * Java's `checkSubscriptionVersion` does; `version` is the one the message was read at.
 */
export function decodeConsumerProtocol<F extends readonly Field[]>(
  def: MessageDef<F>,
  bytes: Uint8Array,
): { version: number; value: StructValue<F> } {
  const reader = new Reader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  const wireVersion = reader.int16();
  if (wireVersion < 0) {
    throw new ProtocolError(`${def.name} version ${wireVersion} is negative`, { api: def.name, offset: 0 });
  }
  const version = Math.min(wireVersion, CONSUMER_PROTOCOL_VERSION);
  return { version, value: messageCodec(def, version).decode(reader) };
}
