import { array, field, type MessageDef, type MessageInputOf, type MessageValueOf, structs } from '../schema.js';

/**
 * The classic consumer protocol's embedded messages: not APIs of their own
 * but the opaque bytes that JoinGroup (`protocols[].metadata`) and SyncGroup
 * (`assignment`) carry for protocol type "consumer". Each is written after an
 * int16 version prefix, and a reader must accept versions newer than it
 * knows (reading the fields it knows), so the prefix is not part of these
 * definitions. Never flexible. Same versions on Kafka 3.9 and 4.x.
 */

/** What a member subscribes to; sent in JoinGroup. */
export const ConsumerProtocolSubscription = {
  name: 'ConsumerProtocolSubscription',
  validVersions: '0-3',
  flexibleVersions: 'none',
  fields: [
    field('topics', array('string'), '0+', { doc: 'Topic names the member subscribes to.' }),
    // Assignor-specific; null when the assignor has none.
    field('userData', 'bytes', '0+', {
      doc: 'Assignor-specific bytes, or null when the assignor has none.',
      nullable: '0+',
      default: null,
    }),
    // v1+: lets a cooperative assignor keep partitions where they are.
    field(
      'ownedPartitions',
      structs('TopicPartition', [
        field('topic', 'string', '1+', { doc: 'Topic name.' }),
        field('partitions', array('int32'), '1+', { doc: 'Owned partition indexes of the topic.' }),
      ]),
      '1+',
      {
        doc: 'v1+: partitions the member owns now, so a cooperative assignor can keep them in place.',
        ignorable: true,
      },
    ),
    field('generationId', 'int32', '2+', {
      doc: 'v2+: generation in which the owned partitions were assigned; -1 if none.',
      default: -1,
      ignorable: true,
    }),
    // v3+: for rack-aware assignment (KIP-881).
    field('rackId', 'string', '3+', {
      doc: "v3+: the member's client.rack, for rack-aware assignment; null if unset.",
      nullable: '3+',
      default: null,
      ignorable: true,
    }),
  ],
} as const satisfies MessageDef;

/** The partitions assigned to one member; received in SyncGroup. */
export const ConsumerProtocolAssignment = {
  name: 'ConsumerProtocolAssignment',
  validVersions: '0-3',
  flexibleVersions: 'none',
  fields: [
    field(
      'assignedPartitions',
      structs('TopicPartition', [
        field('topic', 'string', '0+', { doc: 'Topic name.' }),
        field('partitions', array('int32'), '0+', { doc: 'Assigned partition indexes of the topic.' }),
      ]),
      '0+',
      { doc: 'Partitions assigned to the member, by topic.' },
    ),
    field('userData', 'bytes', '0+', {
      doc: 'Assignor-specific bytes, or null when the assignor has none.',
      nullable: '0+',
      default: null,
    }),
  ],
} as const satisfies MessageDef;

export type ConsumerProtocolSubscriptionValue = MessageValueOf<typeof ConsumerProtocolSubscription>;
export type ConsumerProtocolSubscriptionInput = MessageInputOf<typeof ConsumerProtocolSubscription>;
export type ConsumerProtocolAssignmentValue = MessageValueOf<typeof ConsumerProtocolAssignment>;
export type ConsumerProtocolAssignmentInput = MessageInputOf<typeof ConsumerProtocolAssignment>;
