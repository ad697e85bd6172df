/**
 * What both tidemark produce children share: the arguments, the client with the topic's metadata loaded, and
 * the producer with the produce benchmark's settings (acks all, idempotent, Kafka's batching).
 */
import { Client } from '../../src/client.js';
import { KAFKA_BATCHING, payloadPool } from '../produce-settings.js';
import { produceChildArgs } from './produce-child.js';

export async function tidemarkProducer(clientId: string) {
  const { bootstrap, topic, records, compression } = produceChildArgs();
  const client = new Client({ bootstrap: [bootstrap], clientId });
  await client.metadata({ topics: [topic] });
  const producer = client.producer({
    acks: 'all',
    idempotent: true,
    compression,
    lingerMs: KAFKA_BATCHING.lingerMs,
    batchSize: KAFKA_BATCHING.batchBytes,
  });
  return { client, producer, topic, records, values: payloadPool() };
}
