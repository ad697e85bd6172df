/**
 * Kafka's own AdminClient (java/AdminHelper.java) as the oracle of the admin integration tests: each call
 * answers what Java's Admin returns for the same request on the same cluster, or `{ failure }` with the
 * exception's class and the broker's message.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { kafkaClasspath } from '../../harness/classpath.js';
import { type JsonLinesProcess, LIGHT_JVM_FLAGS, startJsonLinesHelper } from '../../harness/java-program.js';
import { tidemarkDir } from '../../harness/paths.js';

const SOURCE = fileURLToPath(new URL('./java/AdminHelper.java', import.meta.url));
/** The Java client speaks to 3.9 and 4.x brokers alike. */
const CLIENT_KAFKA_VERSION = '4.4.0';

export interface JavaFailure {
  failure: { exception: string; message: string };
}

export class JavaAdmin {
  private constructor(private readonly helper: JsonLinesProcess) {}

  static async start(): Promise<JavaAdmin> {
    const helper = await startJsonLinesHelper({
      source: SOURCE,
      mainClass: 'dev.tidemark.admin.AdminHelper',
      classpath: await kafkaClasspath(CLIENT_KAFKA_VERSION),
      cacheDir: path.join(tidemarkDir, 'admin-java'),
      jvmFlags: [...LIGHT_JVM_FLAGS, '-Xmx256m'],
      name: 'Java AdminClient helper',
    });
    return new JavaAdmin(helper);
  }

  /** Runs one Admin operation against `bootstrap` (see AdminHelper.java for the ops and their arguments). */
  call<T = unknown>(bootstrap: string, op: string, args: Record<string, unknown> = {}): Promise<T> {
    return this.helper.result<T>(op, { bootstrap, ...args });
  }

  close(): Promise<void> {
    return this.helper.close();
  }
}

/** One Java AdminClient helper for the calling test file: started before its tests, closed after them. */
export function useJavaAdmin(): () => JavaAdmin {
  let java: JavaAdmin | undefined;
  beforeAll(async () => {
    java = await JavaAdmin.start();
  }, 120_000);
  afterAll(async () => {
    await java?.close();
  });
  return () => {
    if (java === undefined) throw new Error('the Java AdminClient helper did not start');
    return java;
  };
}
