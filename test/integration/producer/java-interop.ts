/**
 * Runs ProducerInterop.java (Kafka's own Java producer and consumer) against a broker: compiled once with javac
 * against the harness's Kafka classpath and cached under .tidemark/producer-interop/, keyed by the source and
 * the classpath.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath } from '../../harness/classpath.js';
import { compileJava, parseJsonLines, runJavaProgram } from '../../harness/java-program.js';
import { tidemarkDir } from '../../harness/paths.js';
import { DEFAULT_KAFKA_VERSION } from '../../harness/versions.js';

const source = fileURLToPath(new URL('./java/ProducerInterop.java', import.meta.url));

/** Runs one mode of ProducerInterop and returns its JSON lines, parsed. */
export async function javaInterop<T = Record<string, unknown>>(args: string[]): Promise<T[]> {
  const program = await compileJava({
    cacheDir: path.join(tidemarkDir, 'producer-interop'),
    sources: [source],
    // The client jars of the newest Kafka speak to both brokers; the test records need nothing newer.
    classpath: await kafkaClasspath(DEFAULT_KAFKA_VERSION),
    what: 'ProducerInterop.java',
  });
  const { code, stdout, stderr } = await runJavaProgram({
    program,
    mainClass: 'ProducerInterop',
    args,
    jvmFlags: ['-Xmx256m', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
  });
  if (code !== 0) throw new Error(`ProducerInterop ${args[0]} exited ${code}:\n${stderr.slice(-3000)}`);
  return parseJsonLines<T>(stdout);
}
