/** The exit code of an admin call's partial failure (TopicErrors, ResourceErrors): decided by every resource's error. */
import { describe, expect, it } from 'vitest';
import { TidemarkError } from '../../../codecs/errors.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { type KafkaError, kafkaError } from '../../../protocol/kafka-error.js';
import { TopicErrors } from '../../../src/admin/errors.js';
import { ResourceErrors } from '../../../src/admin/resource-errors.js';
import { ExitCode, exitCodeOf } from '../../../src/cli/errors.js';

const missing = () => kafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
const exists = () => kafkaError(ErrorCode.TOPIC_ALREADY_EXISTS);

describe('exit code of several failed resources', () => {
  it('is NOT_FOUND or REFUSED only when every resource failed that way', () => {
    const topics = (a: KafkaError, b: KafkaError) =>
      new TopicErrors(
        'CreateTopics',
        new Map([
          ['a', a],
          ['b', b],
        ]),
        [],
      );
    expect(exitCodeOf(topics(missing(), missing()))).toBe(ExitCode.NOT_FOUND);
    expect(exitCodeOf(topics(exists(), exists()))).toBe(ExitCode.REFUSED);
    expect(exitCodeOf(topics(missing(), exists()))).toBe(ExitCode.ERROR);
  });

  it('reads a ResourceErrors the same way, and a non-Kafka resource error makes it ERROR', () => {
    const resources = (...errors: TidemarkError[]) =>
      new ResourceErrors('DescribeConfigs', new Map(errors.map((e, i) => [`topic:t${i}`, e])), []);
    expect(exitCodeOf(resources(missing(), missing()))).toBe(ExitCode.NOT_FOUND);
    expect(exitCodeOf(resources(exists(), exists()))).toBe(ExitCode.REFUSED);
    expect(exitCodeOf(resources(missing(), new TidemarkError('no such broker')))).toBe(ExitCode.ERROR);
  });
});
