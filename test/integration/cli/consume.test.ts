import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { bootstrap } from '../../harness/context.js';
import { JavaClients } from '../offsets/java-helper.js';
import { cli, newClient, newTopic, uniqueGroup } from './setup.js';

let java: JavaClients;
let client: Client;
let topic: string;
const T0 = Date.parse('2024-05-01T12:00:00.000Z');

beforeAll(async () => {
  java = await JavaClients.start();
  client = newClient();
  topic = await newTopic(client, 'consume', 2);
  // v0..v5 in partition 0, w0..w3 in partition 1, record i at T0 + i.
  const records = [0, 1, 2, 3, 4, 5].map((i) => ({ partition: 0, timestamp: T0 + i, value: `v${i}` }));
  records.push(...[0, 1, 2, 3].map((i) => ({ partition: 1, timestamp: T0 + i, value: `w${i}` })));
  await java.produce(bootstrap(), topic, records);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await java?.close();
});

const sorted = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .sort();

describe('consume', () => {
  it('prints every record (value format), stops after --idle-ms, exit 0', async () => {
    const r = await cli(['consume', '--topic', topic, '--idle-ms', '3000']);
    expect(r.code, r.stderr).toBe(0);
    expect(sorted(r.stdout)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'w0', 'w1', 'w2', 'w3']);
    expect(r.stderr).toContain(`consumed 10 records from ${topic}`);
  });

  it('--format json, --partition, --from <offset> and --max', async () => {
    const r = await cli(['consume', '-t', topic, '--partition', '0', '--from', '2', '--max', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.partition, l.offset, l.value, l.timestamp])).toEqual([
      [0, 2, 'v2', T0 + 2],
      [0, 3, 'v3', T0 + 3],
      [0, 4, 'v4', T0 + 4],
    ]);
  });

  it('--from <ISO date> starts at the first record at or after it on every partition', async () => {
    const r = await cli(['consume', '-t', topic, '--from', new Date(T0 + 3).toISOString(), '--idle-ms', '3000']);
    expect(r.code, r.stderr).toBe(0);
    expect(sorted(r.stdout)).toEqual(['v3', 'v4', 'v5', 'w3']);
  });

  it('--group joins the group and commits to the broker: a second run prints nothing again', async () => {
    const group = uniqueGroup('consume');
    const first = await cli(['consume', '-t', topic, '-g', group, '--max', '10']);
    expect(first.code, first.stderr).toBe(0);
    expect(sorted(first.stdout)).toHaveLength(10);
    const committed = await client.offsets.committed(group);
    expect(committed.map((c) => [c.partition, c.offset]).sort()).toEqual([
      [0, 6n],
      [1, 4n],
    ]);
    const again = await cli(['consume', '-t', topic, '-g', group, '--idle-ms', '2000']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('--offsets-dir: stopped by Ctrl-C and restarted, prints every record exactly once across the runs', async () => {
    const own = await newTopic(client, 'consume-once', 3);
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-cli-consume-'));
    const group = uniqueGroup('once');
    const first = [...Array(30).keys()].map((i) => ({ partition: i % 3, value: `a${i}` }));
    await java.produce(bootstrap(), own, first);

    // Ctrl-C as soon as the first records are out.
    let fire: () => void = () => {};
    const run1 = await cli(['consume', '-t', own, '-g', group, '--offsets-dir', dir], {
      interrupt: (f) => {
        fire = f;
      },
      onStdout: () => setImmediate(fire),
    });
    expect(run1.code, run1.stderr).toBe(130);
    const seen1 = sorted(run1.stdout);
    expect(seen1.length).toBeGreaterThan(0);

    const second = [...Array(30).keys()].map((i) => ({ partition: i % 3, value: `b${i}` }));
    await java.produce(bootstrap(), own, second);
    const run2 = await cli(['consume', '-t', own, '-g', group, '--offsets-dir', dir, '--idle-ms', '3000']);
    expect(run2.code, run2.stderr).toBe(0);
    const all = [...seen1, ...sorted(run2.stdout)].sort();
    expect(all).toEqual([...first, ...second].map((r) => r.value).sort());

    const show = await cli(['offsets', 'show', '--dir', dir, '--json']);
    expect(JSON.parse(show.stdout).map((r: { lag: number }) => r.lag)).toEqual([0, 0, 0]);
  });

  it('exits 3 for an unknown topic and 2 for bad flags', async () => {
    const unknown = await cli(['consume', '-t', 'cli-no-such-topic-c', '--idle-ms', '1000']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toBe('tidemark: topic "cli-no-such-topic-c" does not exist (UNKNOWN_TOPIC_OR_PARTITION)\n');
    const bad = await cli(['consume', '-t', topic, '--from', 'tomorrow']);
    expect(bad.code).toBe(2);
    const noGroup = await cli(['consume', '-t', topic, '--offsets-dir', '/tmp/x']);
    expect(noGroup.code).toBe(2);
    expect(noGroup.stderr).toBe('tidemark: consume: --offsets-dir needs --group\n');
  });
});
