import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { GNU_TIME_FORMAT, parseGnuTime, runProcess } from './process.js';
import type { ClientResult } from './result.js';

/** kcat's version line and the librdkafka it links, or why it cannot run. */
export function kcatVersion(): { version: string } | { unavailable: string } {
  const probe = spawnSync('kcat', ['-V'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.error !== undefined || probe.status !== 0)
    return { unavailable: 'kcat not installed (Debian: apt-get install kcat)' };
  const version = /^Version ([\w.-]+)/m.exec(probe.stdout)?.[1];
  const rd = /librdkafka ([\d.]+)/.exec(probe.stdout)?.[1];
  return { version: `kcat ${version ?? '?'}, librdkafka ${rd ?? '?'}` };
}

/**
 * kcat (librdkafka's command-line client, Debian's package) reads every
 * partition from the beginning without a group (`-o beginning -e` exits at
 * the end of the log, `-c` at the expected count) and prints one line per record with the key and value
 * sizes, which this process counts. Its time runs from the first record
 * printed to its exit (connection and metadata excluded); CPU and peak RSS
 * come from GNU time over the whole process. No value checksum: the values
 * are binary and printing them would dominate its time. librdkafka does not
 * verify batch CRCs by default (`check.crcs=false`); `extraArgs` (e.g.
 * `-X check.crcs=true` for the kcat-crc row) go before the other arguments.
 */
export async function runKcat(
  bootstrap: string,
  topic: string,
  records: number,
  extraArgs: readonly string[] = [],
): Promise<ClientResult> {
  const timed = existsSync('/usr/bin/time');
  const kcatArgs = [
    ...extraArgs,
    '-C',
    '-b',
    bootstrap,
    '-t',
    topic,
    '-o',
    'beginning',
    '-e',
    '-c',
    String(records),
    '-q',
    '-f',
    '%K %S\n',
  ];
  const cmd = timed ? '/usr/bin/time' : 'kcat';
  const argv = timed ? ['-f', GNU_TIME_FORMAT, 'kcat', ...kcatArgs] : kcatArgs;
  let count = 0;
  let bytes = 0;
  let partial = '';
  let first: bigint | undefined;
  const { stderr, code } = await runProcess(cmd, argv, {
    timeoutMs: 15 * 60_000,
    onStdout: (chunk) => {
      first ??= process.hrtime.bigint();
      const lines = (partial + chunk.toString('latin1')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const space = line.indexOf(' ');
        // %K and %S print -1 for a null key or value.
        bytes += Math.max(0, Number(line.slice(0, space))) + Math.max(0, Number(line.slice(space + 1)));
        count++;
      }
    },
  });
  const end = process.hrtime.bigint();
  if (code !== 0) throw new Error(`kcat exited ${code}: ${stderr.slice(-500)}`);
  const v = kcatVersion();
  return {
    records: count,
    bytes,
    seconds: first === undefined ? Number.NaN : Number(end - first) / 1e9,
    ...parseGnuTime(stderr),
    runtime: 'version' in v ? v.version : 'kcat',
  };
}
