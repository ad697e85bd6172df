/**
 * Drives Kafka's Java AdminClient (java/AdminSecurityOracle.java) for the security admin tests: its ACL
 * listings, SCRAM credential descriptions and client quotas are the oracle tidemark's are compared with.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { AclBinding, AclFilter } from '../../../src/admin/acls.js';
import { kafkaClasspath } from '../../harness/classpath.js';
import { type JsonLinesProcess, LIGHT_JVM_FLAGS, startJsonLinesHelper } from '../../harness/java-program.js';
import { tidemarkDir } from '../../harness/paths.js';

const SOURCE = fileURLToPath(new URL('./java/AdminSecurityOracle.java', import.meta.url));
/** Java's AdminClient 4.4 speaks to 3.9 and 4.x brokers alike. */
const CLIENT_KAFKA_VERSION = '4.4.0';

/** A quota filter component as the oracle takes it. */
export interface JavaQuotaComponent {
  entityType: string;
  match: 'exact' | 'default' | 'any';
  name?: string | null;
}

export interface JavaQuotaEntry {
  /** Entity type to name (null: the default entity). */
  entity: Record<string, string | null>;
  values: Record<string, number>;
}

export type JavaScramDescription = Record<
  string,
  { mechanism: string; iterations: number }[] | { error: string; message: string }
>;

export interface JavaTopic {
  name: string;
  topicId: string;
  isInternal: boolean;
  partitions: {
    partition: number;
    leader: number;
    replicas: number[];
    isr: number[];
    eligibleLeaderReplicas: number[];
    lastKnownElr: number[];
  }[];
}

export class AdminSecurityOracle {
  private constructor(private readonly helper: JsonLinesProcess) {}

  static async start(): Promise<AdminSecurityOracle> {
    const helper = await startJsonLinesHelper({
      source: SOURCE,
      mainClass: 'dev.tidemark.adminsecurity.AdminSecurityOracle',
      classpath: await kafkaClasspath(CLIENT_KAFKA_VERSION),
      cacheDir: path.join(tidemarkDir, 'admin-security-java'),
      jvmFlags: [...LIGHT_JVM_FLAGS, '-Xmx192m'],
      name: 'Java AdminClient oracle',
    });
    return new AdminSecurityOracle(helper);
  }

  describeAcls(bootstrap: string, filter: AclFilter = {}): Promise<AclBinding[]> {
    return this.helper.result('describeAcls', { bootstrap, filter });
  }

  createAcls(bootstrap: string, bindings: readonly AclBinding[]): Promise<boolean> {
    return this.helper.result('createAcls', { bootstrap, bindings });
  }

  describeScram(bootstrap: string, users: readonly string[] | null): Promise<JavaScramDescription> {
    return this.helper.result('describeScram', { bootstrap, users });
  }

  describeQuotas(bootstrap: string, components: JavaQuotaComponent[], strict = false): Promise<JavaQuotaEntry[]> {
    return this.helper.result('describeQuotas', { bootstrap, components, strict });
  }

  /** Java's describeTopics (DescribeTopicPartitions where the broker has it), partitions without epochs. */
  describeTopics(bootstrap: string, topics: readonly string[], partitionLimit?: number): Promise<JavaTopic[]> {
    return this.helper.result('describeTopics', { bootstrap, topics, ...(partitionLimit ? { partitionLimit } : {}) });
  }

  /** Java's describeConsumerGroups(includeAuthorizedOperations) of one group, as the SASL user given (sorted names). */
  describeGroupOperations(
    bootstrap: string,
    group: string,
    sasl?: { mechanism: string; username: string; password: string },
  ): Promise<string[] | null> {
    return this.helper.result('describeGroupOperations', { bootstrap, group, sasl: sasl ?? null });
  }

  close(): Promise<void> {
    return this.helper.close();
  }
}

/** One oracle JVM for the test file: started before its tests, stopped after. Call at the file's top level. */
export function useOracle(): () => AdminSecurityOracle {
  let oracle: AdminSecurityOracle | undefined;
  beforeAll(async () => {
    oracle = await AdminSecurityOracle.start();
  }, 120_000);
  afterAll(async () => {
    await oracle?.close();
  });
  return () => oracle!;
}
