import { defineApi, field, structs } from '../schema.js';

/** Which APIs and versions a broker supports; the first request on every connection. */
export const ApiVersions = defineApi({
  name: 'ApiVersions',
  key: 18,
  versions: '0-4',
  flexible: '3+',
  request: [
    field('clientSoftwareName', 'string', '3+', { ignorable: true }),
    field('clientSoftwareVersion', 'string', '3+', { ignorable: true }),
  ],
  response: [
    field('errorCode', 'int16', '0+'),
    field(
      'apiKeys',
      structs('ApiVersion', [
        field('apiKey', 'int16', '0+'),
        field('minVersion', 'int16', '0+'),
        field('maxVersion', 'int16', '0+'),
      ]),
      '0+',
    ),
    field('throttleTimeMs', 'int32', '1+', { ignorable: true }),
    field(
      'supportedFeatures',
      structs('SupportedFeatureKey', [
        field('name', 'string', '3+'),
        field('minVersion', 'int16', '3+'),
        field('maxVersion', 'int16', '3+'),
      ]),
      '3+',
      { tag: 0, taggedVersions: '3+', ignorable: true },
    ),
    field('finalizedFeaturesEpoch', 'int64', '3+', { tag: 1, taggedVersions: '3+', default: -1n, ignorable: true }),
    field(
      'finalizedFeatures',
      structs('FinalizedFeatureKey', [
        field('name', 'string', '3+'),
        field('maxVersionLevel', 'int16', '3+'),
        field('minVersionLevel', 'int16', '3+'),
      ]),
      '3+',
      { tag: 2, taggedVersions: '3+', ignorable: true },
    ),
    field('zkMigrationReady', 'bool', '3+', { tag: 3, taggedVersions: '3+', default: false, ignorable: true }),
  ],
});
