/**
 * Kafka's Java consumer in the group workloads: bench/clients/java/BenchGroupMember.java, compiled once
 * (cached) against the kafka-tools classpath, one JVM per member (bench/clients/group.ts).
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath } from '../../test/harness/classpath.js';
import { javaBinary } from '../../test/harness/java.js';
import { compileJava } from '../../test/harness/java-program.js';
import { tidemarkDir } from '../../test/harness/paths.js';
import type { Workload } from '../load.js';
import { groupRound, runGroupMembers } from './group.js';
import type { ClientResult } from './result.js';

const SOURCE = fileURLToPath(new URL('./java/BenchGroupMember.java', import.meta.url));

export async function runJavaGroup(
  bootstrap: string,
  w: Workload,
  members: number,
  toolsVersion: string,
): Promise<ClientResult> {
  const program = await compileJava({
    cacheDir: path.join(tidemarkDir, 'bench-java'),
    sources: [SOURCE],
    classpath: await kafkaClasspath(toolsVersion),
    what: 'the bench group member',
  });
  return runGroupMembers(
    members,
    groupRound(bootstrap, w),
    (group) => ({
      cmd: javaBinary(),
      args: ['-Xmx1g', '-cp', program.runClasspath, 'BenchGroupMember', bootstrap, w.topic, group],
    }),
    // The member counts record numbers (so re-reads and gaps), not the values' checksum.
    { withChecksum: false },
  );
}
