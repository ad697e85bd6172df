/**
 * What the kafkajs-API child processes share: read the whole topic from offset 0 in a fresh group through a
 * module with kafkajs's API (kafkajs 2.2.4 itself, or tidemark/kafkajs) with `eachBatch` or `eachMessage`,
 * no autocommit, default fetch sizes. The clock starts at the group join (the GROUP_JOIN event), as for the
 * kafkajs row (kafkajs-consume.ts).
 */
import { childArgs, freshGroup, Tally, withDeadline } from './child.js';

/** The part of kafkajs's API the bench uses; kafkajs and tidemark/kafkajs both have it. */
export interface KafkajsApi {
  Kafka: new (config: {
    clientId: string;
    brokers: string[];
    logLevel: number;
  }) => {
    consumer(config: { groupId: string }): {
      events: { GROUP_JOIN: string };
      on(event: string, listener: () => void): unknown;
      connect(): Promise<void>;
      subscribe(s: { topics: string[]; fromBeginning: boolean }): Promise<void>;
      run(config: {
        autoCommit: boolean;
        eachBatch?: (p: { batch: { messages: { key: Buffer | null; value: Buffer | null }[] } }) => Promise<void>;
        eachMessage?: (p: { message: { key: Buffer | null; value: Buffer | null } }) => Promise<void>;
      }): Promise<void>;
      disconnect(): Promise<void>;
    };
  };
  logLevel: { NOTHING: number };
}

export async function consumeWithKafkajsApi(api: KafkajsApi, client: string, mode: 'eachBatch' | 'eachMessage') {
  const { bootstrap, topic, expected } = childArgs();
  const tally = new Tally(expected);
  await withDeadline(600_000, async () => {
    const kafka = new api.Kafka({ clientId: `bench-${client}`, brokers: [bootstrap], logLevel: api.logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId: freshGroup(client) });
    consumer.on(consumer.events.GROUP_JOIN, () => tally.start());
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run(
      mode === 'eachBatch'
        ? {
            autoCommit: false,
            eachBatch: async ({ batch }) => {
              for (const m of batch.messages) tally.add(m.key, m.value);
            },
          }
        : { autoCommit: false, eachMessage: async ({ message }) => tally.add(message.key, message.value) },
    );
    await tally.done;
    await consumer.disconnect();
  });
  return tally;
}
