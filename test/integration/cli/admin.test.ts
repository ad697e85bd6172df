import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '../../../src/cli/format.js';
import type { Client } from '../../../src/client.js';
import { eventually } from '../../harness/eventually.js';
import { TARGETS } from '../admin/setup.js';
import { cli, newClient, newTopic, tableRows } from './setup.js';

/** What `--json` must print: the API result, bigints as JSON numbers. */
function asJson(value: unknown): unknown {
  return JSON.parse(toJson(value));
}

describe.each(TARGETS)('tidemark configs / topics add-partitions / records delete against $label', ({ at }) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(at());
    topic = await newTopic(client, 'admin', 2);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('configs alter changes a topic config; configs describe shows it, --json equal to describeConfigs', async () => {
    const alter = await cli(['configs', 'alter', '--topic', topic, '--set', 'retention.ms=86400000'], {
      bootstrap: at(),
    });
    expect(alter.stderr).toBe('');
    expect(alter.code).toBe(0);
    expect(alter.stdout).toBe(`changed 1 config of topic ${topic}\n`);

    // The broker describes from its own replay of the metadata log, a moment after it answered the change.
    await eventually(async () => {
      const text = await cli(['configs', 'describe', '--topic', topic, '--changed'], { bootstrap: at() });
      expect(text.code).toBe(0);
      expect(tableRows(text.stdout, 'retention.ms')).toEqual([
        ['retention.ms', '86400000', 'DYNAMIC_TOPIC_CONFIG', 'no'],
      ]);
    });

    const json = await cli(['configs', 'describe', '--topic', topic, '--synonyms', '--json'], { bootstrap: at() });
    const api = await client.admin.describeConfigs([{ type: 'topic', name: topic }], { includeSynonyms: true });
    expect(JSON.parse(json.stdout)).toEqual(asJson(api[0]));
  });

  it('configs alter: an unknown config exits 5 with the broker reason; --validate-only changes nothing', async () => {
    const bad = await cli(['configs', 'alter', '--topic', topic, '--set', 'no.such.config=1'], { bootstrap: at() });
    expect(bad.code).toBe(5);
    expect(bad.stderr).toMatch(/^tidemark: INVALID_CONFIG .*broker says: .*no\.such\.config/);
    const dry = await cli(['configs', 'alter', '--topic', topic, '--set', 'retention.ms=1000', '--validate-only'], {
      bootstrap: at(),
    });
    expect(dry.stdout).toBe(`would change 1 config of topic ${topic}\n`);
    const [after] = await client.admin.describeConfigs([{ type: 'topic', name: topic }], {
      configNames: ['retention.ms'],
    });
    expect(after.configs[0].value).toBe('86400000');
  });

  it('topics add-partitions raises the count (--json equal to createPartitions); a lower count exits 5', async () => {
    const json = await cli(['topics', 'add-partitions', topic, '--count', '3', '--json'], { bootstrap: at() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([{ topic, count: 3 }]);
    await eventually(async () => {
      const [described] = await client.admin.describeTopics([topic]);
      expect(described.partitions).toHaveLength(3);
    });

    const lower = await cli(['topics', 'add-partitions', topic, '--count', '2'], { bootstrap: at() });
    expect(lower.code).toBe(5);
    expect(lower.stderr).toMatch(/^tidemark: INVALID_PARTITIONS .*broker says: /);
  });

  it('records delete --before moves the low watermarks; --json equal to deleteRecords', async () => {
    const producer = client.producer();
    for (let i = 0; i < 6; i++) await producer.send({ topic, partition: 0, value: Buffer.from(`v${i}`) });
    await producer.close();
    const text = await cli(['records', 'delete', topic, '--before', '2', '--partition', '0'], { bootstrap: at() });
    expect(text.code).toBe(0);
    expect(tableRows(text.stdout, topic)).toEqual([[topic, '0', '2']]);

    const json = await cli(['records', 'delete', topic, '--before', 'end', '--json'], { bootstrap: at() });
    const doc = JSON.parse(json.stdout);
    expect(doc).toEqual([
      { topic, partition: 0, lowWatermark: 6 },
      { topic, partition: 1, lowWatermark: 0 },
      { topic, partition: 2, lowWatermark: 0 },
    ]);
    const earliest = await client.offsets.earliest(topic);
    expect(doc).toEqual(asJson(earliest.map((e) => ({ topic, partition: e.partition, lowWatermark: e.offset }))));
  });
});
