/**
 * ProducerInterop.java (Kafka's own Java producer and consumer) as the oracle of the interop tests: one JVM per
 * test file, started before its tests and answering one JsonLines command per call (compiled once with javac
 * against the harness's Kafka classpath, cached under .tidemark/producer-interop/).
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { kafkaClasspath } from '../../harness/classpath.js';
import { type JsonLinesProcess, startJsonLinesHelper } from '../../harness/java-program.js';
import { tidemarkDir } from '../../harness/paths.js';
import { DEFAULT_KAFKA_VERSION } from '../../harness/versions.js';

const SOURCE = fileURLToPath(new URL('./java/ProducerInterop.java', import.meta.url));

/** Runs one op of ProducerInterop (see its docblock for the ops and their arguments); resolves with its list. */
export type JavaInterop = <T>(op: string, args: Record<string, unknown>) => Promise<T[]>;

/** One ProducerInterop JVM for the calling test file: started before its tests, closed after them. */
export function useJavaInterop(): JavaInterop {
  let helper: JsonLinesProcess | undefined;
  beforeAll(async () => {
    helper = await startJsonLinesHelper({
      source: SOURCE,
      mainClass: 'dev.tidemark.producer.ProducerInterop',
      // The client jars of the newest Kafka speak to both brokers; the test records need nothing newer.
      classpath: await kafkaClasspath(DEFAULT_KAFKA_VERSION),
      cacheDir: path.join(tidemarkDir, 'producer-interop'),
      jvmFlags: ['-Xmx256m', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
      name: 'Java producer interop helper',
    });
  }, 120_000);
  afterAll(async () => {
    await helper?.close();
  });
  return <T>(op: string, args: Record<string, unknown>) => {
    if (helper === undefined) throw new Error('the Java producer interop helper did not start');
    return helper.result<T[]>(op, args);
  };
}
