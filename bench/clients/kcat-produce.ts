/**
 * kcat -P for the produce benchmark: the records come from a file, one 100-byte line of random letters each
 * (`-l FILE`), written once per bench run; librdkafka's throughput settings through `-X` (the binding's, from
 * bench/produce-settings.ts). kcat reports no delivery count and no start of sending, so its time is the
 * whole process, start-up and connection included, and the parent's end-offset check is its verification.
 * CPU and peak RSS from GNU time.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIBRDKAFKA_PRODUCE, type ProduceCompression, randomLetters } from '../produce-settings.js';
import { kcatVersion } from './kcat.js';
import { GNU_TIME_FORMAT, parseGnuTime, runProcess } from './process.js';
import type { ClientResult } from './result.js';

/** A file of `records` lines of `valueBytes` random letters, for kcat -P -l; `remove()` deletes it. */
export async function writeRecordsFile(
  records: number,
  valueBytes: number,
): Promise<{ path: string; remove(): Promise<void> }> {
  const path = join(tmpdir(), `tidemark-bench-produce-${process.pid}-${records}.txt`);
  const out = createWriteStream(path);
  // Written in chunks of up to 10,000 lines; each line distinct like the Node children's values.
  for (let done = 0; done < records; ) {
    const n = Math.min(10_000, records - done);
    const chunk = Buffer.allocUnsafe(n * (valueBytes + 1));
    for (let i = 0; i < n; i++) {
      randomLetters(valueBytes).copy(chunk, i * (valueBytes + 1));
      chunk[i * (valueBytes + 1) + valueBytes] = 0x0a;
    }
    done += n;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return { path, remove: () => rm(path, { force: true }) };
}

export async function runKcatProduce(
  bootstrap: string,
  topic: string,
  records: number,
  valueBytes: number,
  compression: ProduceCompression,
  file: string,
): Promise<ClientResult> {
  const settings = Object.entries(LIBRDKAFKA_PRODUCE).flatMap(([k, v]) => ['-X', `${k}=${v}`]);
  const kcatArgs = ['-P', '-b', bootstrap, '-t', topic, '-z', compression, ...settings, '-l', file];
  const timed = existsSync('/usr/bin/time');
  const cmd = timed ? '/usr/bin/time' : 'kcat';
  const argv = timed ? ['-f', GNU_TIME_FORMAT, 'kcat', ...kcatArgs] : kcatArgs;
  const t0 = process.hrtime.bigint();
  const { stderr, code } = await runProcess(cmd, argv, { timeoutMs: 15 * 60_000 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  // kcat reports a failed delivery on stderr ("% Delivery failed …") and still exits 0 in some versions.
  const failure = stderr.split('\n').find((l) => /fail|error/i.test(l));
  if (code !== 0 || failure !== undefined)
    throw new Error(`kcat -P exited ${code}: ${(failure ?? stderr).slice(-500)}`);
  const v = kcatVersion();
  return {
    records,
    bytes: records * valueBytes,
    seconds,
    ...parseGnuTime(stderr),
    runtime: 'version' in v ? v.version : 'kcat',
  };
}
