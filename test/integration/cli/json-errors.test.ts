/** With --json, a broker's refusal reaches scripts as JSON too: on stderr, with the exit code and Kafka's name. */
import { describe, expect, it } from 'vitest';
import { bootstrap, legacyBootstrap } from '../../harness/context.js';
import { cli, uniqueGroup } from './setup.js';

// The 3.9 broker is absent when KAFKA_BOOTSTRAP_LEGACY is unset and the harness started only 4.x: skipped then.
const brokers = [
  ['4.x', bootstrap()],
  ['3.9', legacyBootstrap()],
] as const;

describe.each(brokers)('errors as JSON against Kafka %s', (_version, at) => {
  it.skipIf(at === null)('an unknown topic: exit 3, UNKNOWN_TOPIC_OR_PARTITION, stdout empty', async () => {
    const r = await cli(['consume', '-t', 'cli-no-such-topic-json', '--idle-ms', '1000', '--json'], {
      bootstrap: at as string,
    });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        name: 'KafkaError',
        message: 'topic "cli-no-such-topic-json" does not exist (UNKNOWN_TOPIC_OR_PARTITION)',
        exitCode: 3,
        retriable: true,
        kafkaError: 'UNKNOWN_TOPIC_OR_PARTITION',
      },
    });
  });

  it.skipIf(at === null)('an unknown group: exit 3, the message says so', async () => {
    const group = uniqueGroup('json-missing');
    const r = await cli(['describe', group, '--json'], { bootstrap: at as string });
    expect(r.code, r.stderr).toBe(3);
    const { error } = JSON.parse(r.stderr);
    expect(error).toMatchObject({ exitCode: 3, message: `group "${group}" does not exist` });
  });
});
