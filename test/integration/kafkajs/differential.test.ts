/**
 * Differential: the same scenario (scenario.ts) on kafkajs 2.2.4 and on tidemark/kafkajs against the same
 * broker, asserting equal observable results: createTopics answers and errors, send results, eachMessage and
 * eachBatch payloads, committed offsets and topic offsets.
 */
import * as kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import * as facade from '../../../src/kafkajs/index.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { type KafkaModule, runScenario } from './scenario.js';

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

describe.each(generations)('kafkajs and tidemark/kafkajs on $label', ({ address }) => {
  it.skipIf(address === null)('observe the same results', { timeout: 120_000 }, async () => {
    const broker = address as string;
    const original = await runScenario(
      kafkajs as unknown as KafkaModule,
      broker,
      uniqueTopicName('kjs'),
      uniqueTopicName('kjs-g'),
    );
    const ours = await runScenario(facade, broker, uniqueTopicName('kjs'), uniqueTopicName('kjs-g'));
    expect(original.created).toBe(true);
    expect(original.createdAgain).toBe(false);
    expect(original.messages).toHaveLength(6);
    expect(ours.created).toBe(original.created);
    expect(ours.createdAgain).toBe(original.createdAgain);
    expect(ours.createError).toEqual(original.createError);
    expect(ours.messages).toEqual(original.messages.map((m) => ({ ...(m as object) })));
    // Offsets equal; the commit metadata differs: kafkajs commits null, the core commits '' (docs/migrating-from-kafkajs.md).
    const withoutMetadata = (c: unknown) =>
      (c as { topic: string; partitions: { metadata: unknown }[] }[]).map((t) => ({
        ...t,
        partitions: t.partitions.map(({ metadata: _, ...p }) => p),
      }));
    expect(withoutMetadata(ours.committed)).toEqual(withoutMetadata(original.committed));
    expect(ours.topicOffsets).toEqual(original.topicOffsets);
    expect(ours.batches).toEqual(original.batches);
    expect(ours.sent).toEqual(original.sent);
    expect(ours.groups).toEqual(original.groups);
  });
});
