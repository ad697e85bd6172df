import { afterAll, describe, expect, it } from 'vitest';
import { errorInfo } from '../../protocol/error-codes.js';
import { KAFKA_VERSIONS } from './kafka.js';
import { Oracle } from './oracle.js';

/**
 * tidemark's error table against Kafka's own `Errors` enum: retry logic
 * branches on the retriable flag, so a wrong flag means a lost or a looping
 * request. Newer codes than an older release knows are fine.
 */
const oracles: Oracle[] = [];
afterAll(() => {
  for (const o of oracles) o.close();
});

describe('error codes against Kafka', () => {
  it.each(KAFKA_VERSIONS)('match the Errors enum of Kafka %s: code, name, retriable', async (version) => {
    const oracle = await Oracle.start(version);
    oracles.push(oracle);
    const kafka = await oracle.errors();
    expect(kafka.length).toBeGreaterThan(100);
    const ours = kafka.map((e) => {
      const info = errorInfo(e.code);
      return { code: e.code, name: info?.name, retriable: info?.retriable };
    });
    expect(ours).toEqual(kafka);
  });
});
