/** ApiVersions: every API the fake serves, from version 0 to the version it offers (`kafka.versions`). */
import { API_DEFINITIONS } from '../../../protocol/index.js';
import type { FakeKafka } from '../cluster.js';

export function answerApiVersions(kafka: FakeKafka): unknown {
  return {
    errorCode: 0,
    apiKeys: API_DEFINITIONS.filter((api) => kafka.versions[api.name] !== undefined).map((api) => ({
      apiKey: api.key,
      minVersion: 0,
      maxVersion: kafka.versions[api.name],
    })),
    throttleTimeMs: 0,
    supportedFeatures: [],
    finalizedFeaturesEpoch: -1n,
    finalizedFeatures: [],
    zkMigrationReady: false,
  };
}
