/**
 * The programs package.test.ts writes into a scratch project that installed the `npm pack` tarball: what a new
 * user writes first, in each module system. Each prints one JSON line the test compares.
 */

/** ESM: named imports, a library error caught and recognised with instanceof, a pure function. */
export const ESM_PROGRAM = `import { InvalidOffsetsExportError, partitionForKey, parseOffsetsExport, TidemarkError } from 'tidemark';

let caught;
try {
  parseOffsetsExport('{');
} catch (err) {
  caught = err;
}
console.log(JSON.stringify({
  instanceOfClass: caught instanceof InvalidOffsetsExportError,
  instanceOfBase: caught instanceof TidemarkError,
  name: caught?.name,
  partition: partitionForKey(new TextEncoder().encode('key-1'), 12),
}));
`;

/**
 * CommonJS: \`require\` of the package and of its package.json; the classes are the very objects \`import\` gives,
 * so an error thrown by code that imported tidemark is still an instance of the class this file required.
 */
export const CJS_PROGRAM = `const tidemark = require('tidemark');
const { version } = require('tidemark/package.json');

let caught;
try {
  tidemark.parseOffsetsExport('{');
} catch (err) {
  caught = err;
}
import('tidemark').then((esm) => {
  console.log(JSON.stringify({
    instanceOfClass: caught instanceof tidemark.InvalidOffsetsExportError,
    instanceOfBase: caught instanceof tidemark.TidemarkError,
    name: caught?.name,
    partition: tidemark.partitionForKey(new TextEncoder().encode('key-1'), 12),
    sameClasses: esm.InvalidOffsetsExportError === tidemark.InvalidOffsetsExportError && esm.Consumer === tidemark.Consumer,
    version,
  }));
});
`;

/**
 * TypeScript as ESM (.mts): classes as values and types, option types, a type guard, and what writing an own
 * OffsetStore and RebalanceListener takes (each of these types was once missing from the exports).
 */
export const TS_ESM_PROGRAM = `import {
  Client,
  type ClientConfig,
  type CommitOptions,
  type CompressionCodecName,
  type ConsumerOptions,
  isRetriable,
  KafkaError,
  type LoadedOffsets,
  MaxPollIntervalExceededError,
  type OffsetCommit,
  type OffsetStore,
  type ProducerRecord,
  type RebalanceListener,
  type RecordHeader,
  type StoredOffset,
  type Subscription,
  type TopicPartition,
} from 'tidemark';

export function connect(config: ClientConfig): Client {
  return new Client(config);
}
export const isKafkaFailure = (err: unknown): err is KafkaError => err instanceof KafkaError;
export const shouldRetry = (err: unknown): boolean => isRetriable(err) && !(err instanceof MaxPollIntervalExceededError);
export type Options = ConsumerOptions;
export type Topics = Subscription;
export const record: ProducerRecord = { topic: 'events', value: 'v' } as ProducerRecord;
export const codec: CompressionCodecName = 'zstd';
export const headerKeys = (headers: RecordHeader[]): string[] => headers.map((h) => h.key);

export class MapOffsetStore implements OffsetStore {
  readonly #stored = new Map<string, StoredOffset>();
  async load(group: string, partitions: readonly TopicPartition[]): Promise<LoadedOffsets> {
    const loaded: LoadedOffsets = new Map();
    for (const { topic, partition } of partitions) {
      const byPartition = loaded.get(topic) ?? new Map<number, StoredOffset | undefined>();
      byPartition.set(partition, this.#stored.get(\`\${group}/\${topic}/\${partition}\`));
      loaded.set(topic, byPartition);
    }
    return loaded;
  }
  async commit(group: string, offsets: readonly OffsetCommit[], _options?: CommitOptions): Promise<void> {
    for (const o of offsets) {
      const stored: StoredOffset = { offset: o.offset, leaderEpoch: o.leaderEpoch ?? null, committedAt: Date.now() };
      this.#stored.set(\`\${group}/\${o.topic}/\${o.partition}\`, stored);
    }
  }
  async close(): Promise<void> {}
}

export const listener: RebalanceListener = {
  onAssigned: (partitions: TopicPartition[]) => console.log('assigned', partitions.length),
};
`;

/** TypeScript as CommonJS (.cts): \`import = require\` and a named import both resolve to the require types. */
export const TS_CJS_PROGRAM = `import tidemark = require('tidemark');
import { type ClientConfig, KafkaError } from 'tidemark';

export function connect(config: ClientConfig): tidemark.Client {
  return new tidemark.Client(config);
}
export const isKafkaFailure = (err: unknown): err is KafkaError => err instanceof tidemark.KafkaError;
export type Options = tidemark.ConsumerOptions;
`;

/** The strict tsconfig of one resolution mode; the scratch project has no @types/node, the repo's is used. */
export function tsconfig(mode: 'node16' | 'bundler', typeRoots: string): string {
  const module =
    mode === 'node16'
      ? { module: 'node16', moduleResolution: 'node16' }
      : { module: 'preserve', moduleResolution: 'bundler' };
  return JSON.stringify({
    compilerOptions: {
      ...module,
      target: 'es2022',
      strict: true,
      noEmit: true,
      // The package's own declarations are checked too, as a user without skipLibCheck would.
      skipLibCheck: false,
      typeRoots: [typeRoots],
      types: ['node'],
    },
    files: ['program.mts', 'program.cts'],
  });
}

/** A kafkajs program's CommonJS `require`, with only the module name changed: the facade and its classes. */
export const KAFKAJS_CJS_PROGRAM = `const { Kafka, logLevel, KafkaJSNonRetriableError, CompressionTypes } = require('tidemark/kafkajs');

let caught;
try {
  new Kafka({ brokers: ['localhost:9092'], socketFactory: () => null });
} catch (err) {
  caught = err;
}
const kafka = new Kafka({ clientId: 'my-app', brokers: ['localhost:9092'], logLevel: logLevel.NOTHING });
import('tidemark/kafkajs').then((esm) => {
  console.log(JSON.stringify({
    producer: typeof kafka.producer().send,
    consumer: typeof kafka.consumer({ groupId: 'g' }).run,
    admin: typeof kafka.admin().createTopics,
    gzip: CompressionTypes.GZIP,
    refused: caught instanceof KafkaJSNonRetriableError && /socketFactory/.test(caught.message),
    sameClasses: esm.Kafka === Kafka && esm.KafkaJSNonRetriableError === KafkaJSNonRetriableError,
  }));
});
`;
