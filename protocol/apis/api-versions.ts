import { defineApi, field, structs } from '../schema.js';

/** Which APIs and versions a broker supports; the first request on every connection. */
export const ApiVersions = defineApi({
  name: 'ApiVersions',
  key: 18,
  versions: '0-4',
  flexible: '3+',
  request: [
    field('clientSoftwareName', 'string', '3+', {
      doc: 'Name of the client library, for the broker\'s metrics (e.g. "tidemark").',
      ignorable: true,
    }),
    field('clientSoftwareVersion', 'string', '3+', {
      doc: "Version of the client library, for the broker's metrics.",
      ignorable: true,
    }),
  ],
  response: [
    field('errorCode', 'int16', '0+', {
      doc: 'Error; UNSUPPORTED_VERSION means retry with the version range in apiKeys.',
    }),
    field(
      'apiKeys',
      structs('ApiVersion', [
        field('apiKey', 'int16', '0+', { doc: 'Key of the API this range is for, e.g. 0 Produce, 1 Fetch.' }),
        field('minVersion', 'int16', '0+', { doc: 'Oldest version the broker accepts.' }),
        field('maxVersion', 'int16', '0+', { doc: 'Newest version the broker accepts.' }),
      ]),
      '0+',
      { doc: 'Every API the broker serves, with its version range.' },
    ),
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'supportedFeatures',
      structs('SupportedFeatureKey', [
        field('name', 'string', '3+', { doc: 'Feature name, e.g. "metadata.version".' }),
        field('minVersion', 'int16', '3+', { doc: 'Lowest level supported.' }),
        field('maxVersion', 'int16', '3+', { doc: 'Highest level supported.' }),
      ]),
      '3+',
      {
        doc: 'Cluster features this broker supports, with their level ranges.',
        tag: 0,
        taggedVersions: '3+',
        ignorable: true,
      },
    ),
    field('finalizedFeaturesEpoch', 'int64', '3+', {
      doc: 'Epoch of the finalized features below; -1 if unknown.',
      tag: 1,
      taggedVersions: '3+',
      default: -1n,
      ignorable: true,
    }),
    field(
      'finalizedFeatures',
      structs('FinalizedFeatureKey', [
        field('name', 'string', '3+', { doc: 'Feature name.' }),
        field('maxVersionLevel', 'int16', '3+', { doc: 'Finalized level in force.' }),
        field('minVersionLevel', 'int16', '3+', { doc: 'Lowest finalized level.' }),
      ]),
      '3+',
      { doc: 'Cluster features in force, with their finalized levels.', tag: 2, taggedVersions: '3+', ignorable: true },
    ),
    field('zkMigrationReady', 'bool', '3+', {
      doc: 'Whether a ZooKeeper-to-KRaft migration is ready (controllers only).',
      tag: 3,
      taggedVersions: '3+',
      default: false,
      ignorable: true,
    }),
  ],
});
