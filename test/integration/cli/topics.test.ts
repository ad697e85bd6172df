import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import {
  bootstrap,
  SASL_ADMIN_PASSWORD,
  SASL_ADMIN_USERNAME,
  saslBootstrap,
  uniqueTopicName,
} from '../../harness/context.js';
import { JavaClients } from '../offsets/java-helper.js';
import { cli, closedPort, newClient, newTopic, runCli, tableRows } from './setup.js';

let client: Client;
beforeAll(() => {
  client = newClient();
});
afterAll(async () => {
  await client?.close();
});

describe('topics', () => {
  it('create, list, describe and delete a topic', async () => {
    const name = uniqueTopicName('cli-topics');
    const created = await cli([
      'topics',
      'create',
      name,
      '--partitions',
      '3',
      '-r',
      '1',
      '--config',
      'retention.ms=3600000',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(
      new RegExp(`^created topic ${name} \\(3 partitions, replication factor 1, id \\S+\\)\\n$`),
    );

    const list = await cli(['topics', 'list']);
    expect(list.stdout.split('\n')).toContain(name);
    expect(list.stdout).not.toContain('__consumer_offsets');
    const internal = await cli(['topics', 'list', '--internal', '--json']);
    expect(JSON.parse(internal.stdout)).toContain('__consumer_offsets');

    const described = await cli(['topics', 'describe', name]);
    expect(described.code).toBe(0);
    expect(described.stdout).toContain(`Topic ${name}: id`);
    expect(tableRows(described.stdout, '2')[0]).toEqual([
      '2',
      expect.any(String),
      expect.any(String),
      '1',
      '1',
      '0',
      '0',
    ]);
    const json = JSON.parse((await cli(['topics', 'describe', name, '--json'])).stdout);
    expect(json[0].partitions).toHaveLength(3);
    expect(json[0].partitions[0]).toMatchObject({ partition: 0, earliest: 0, logEndOffset: 0 });

    const again = await cli(['topics', 'create', name]);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/^tidemark: TOPIC_ALREADY_EXISTS.*\n$/);

    const deleted = await cli(['topics', 'delete', name]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`deleted topic ${name}\n`);
    const gone = await cli(['topics', 'describe', name]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toBe(`tidemark: topic "${name}" does not exist (UNKNOWN_TOPIC_OR_PARTITION)\n`);
  });

  it('exits 3 when deleting or describing unknown topics', async () => {
    const r = await cli(['topics', 'delete', 'cli-no-such-topic-a']);
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const two = await cli(['topics', 'describe', 'cli-no-such-topic-b', 'cli-no-such-topic-c']);
    expect(two.code).toBe(3);
    expect(two.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('produce', () => {
  it('sends one record per stdin line, keys split at the separator, and they can be read back', async () => {
    const topic = await newTopic(client, 'produce', 2);
    const lines = ['k1:v1', 'k2:v2', 'k1:v3', 'k3:with:colons'].join('\n');
    const r = await cli(['produce', '--topic', topic, '--key-separator', ':', '--json'], { stdin: `${lines}\n` });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.records).toBe(4);
    const latest = await client.offsets.latest(topic);
    expect(latest.reduce((sum, l) => sum + l.offset, 0n)).toBe(4n);

    const java = await JavaClients.start();
    try {
      const group = uniqueTopicName('cli-produce-read');
      const read = await java.consumeAndCommit(bootstrap(), group, topic, 4);
      expect(read.reduce((sum, c) => sum + Number(c.offset), 0)).toBe(4);
    } finally {
      await java.close();
    }

    const pinned = await cli(['produce', '-t', topic, '--partition', '1'], { stdin: 'a\nb\nc' });
    expect(pinned.code).toBe(0);
    expect(pinned.stderr).toBe(`produced 3 records to ${topic}\n`);
    const after = await client.offsets.latest([{ topic, partition: 1 }]);
    expect(after[0].offset).toBe(latest.find((l) => l.partition === 1)!.offset + 3n);
  });

  it('stops at a line without the key separator, and exits 3 for an unknown topic', async () => {
    const topic = await newTopic(client, 'produce-bad', 1);
    const r = await cli(['produce', '--topic', topic, '-k', '='], { stdin: 'a=1\nb=2\nno separator\nc=3\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('tidemark: line 3 has no key separator "="; the 2 lines before it were sent\n');
    expect((await client.offsets.latest(topic))[0].offset).toBe(2n);

    const unknown = await cli(['produce', '--topic', 'cli-no-such-topic-p'], { stdin: 'x\n' });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toBe('tidemark: topic "cli-no-such-topic-p" does not exist (UNKNOWN_TOPIC_OR_PARTITION)\n');
  });
});

describe('an unreachable broker', () => {
  it('gives one clear line and exit 4 for every command that needs the cluster', async () => {
    const at = `127.0.0.1:${await closedPort()}`;
    const commands = [
      ['groups'],
      ['describe', 'g'],
      ['topics', 'list'],
      ['offsets', 'export', 'g'],
      ['offsets', 'reset', 'g', '--all-topics', '--to', 'earliest'],
    ];
    for (const argv of commands) {
      const started = Date.now();
      const r = await runCli([...argv, '--bootstrap', at, '--connect-timeout', '300', '--timeout', '1500']);
      expect(r.code, argv.join(' ')).toBe(4);
      expect(r.stderr).toMatch(new RegExp(`^tidemark: .*\\(is the cluster at ${at} reachable\\?.*\\)\\n$`));
      expect(r.stdout).toBe('');
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });

  it('takes the brokers from TIDEMARK_BOOTSTRAP', async () => {
    const r = await runCli(['topics', 'list', '--json'], { env: { TIDEMARK_BOOTSTRAP: bootstrap() } });
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });
});

describe.skipIf(saslBootstrap() === null)('SASL', () => {
  it('passes --sasl-* to the client: SCRAM with the right password works, a wrong one fails in one line', async () => {
    const at = saslBootstrap() as string;
    const sasl = ['--sasl-mechanism', 'SCRAM-SHA-512', '--sasl-username', SASL_ADMIN_USERNAME];
    const ok = await runCli(['topics', 'list', '--json', '-b', at, ...sasl], {
      env: { TIDEMARK_SASL_PASSWORD: SASL_ADMIN_PASSWORD },
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(ok.stdout))).toBe(true);
    const plain = await runCli([
      'groups',
      '-b',
      at,
      '--sasl-mechanism',
      'PLAIN',
      '--sasl-username',
      SASL_ADMIN_USERNAME,
      '--sasl-password',
      SASL_ADMIN_PASSWORD,
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    const wrong = await runCli(['topics', 'list', '-b', at, ...sasl, '--sasl-password', 'nope', '--timeout', '5000']);
    expect(wrong.code).toBe(6);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/^tidemark: .*(auth|SASL)/i);
  });
});
