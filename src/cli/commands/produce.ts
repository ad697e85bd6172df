import { createInterface } from 'node:readline';
import { TidemarkError } from '../../../codecs/errors.js';
import type { RecordMetadata } from '../../producer/batch.js';
import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { plural } from '../format.js';
import { progress } from '../progress.js';

export const produceCommand: Command = {
  name: 'produce',
  summary: 'one record per line of stdin',
  help: `Usage: tidemark produce --topic T [--key-separator S] [--partition P] [--acks all|1|0]

Sends each line of stdin (without its line end) as one record's value, in order, and waits until the broker
has every record. With --key-separator, the text before the first separator is the record key; a line
without the separator is an error. An unknown topic exits with 3.

  -t, --topic T            the topic (required)
  -k, --key-separator S    split each line into key S value
      --partition P        write every record to partition P (default: by key, or sticky)
      --acks all|1|0       acknowledgement the broker waits for (default all)`,
  options: {
    topic: { type: 'string', short: 't' },
    'key-separator': { type: 'string', short: 'k' },
    partition: { type: 'string' },
    acks: { type: 'string' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const topic = ctx.string('topic');
    if (topic === undefined) throw new UsageError('produce: --topic is required (see tidemark produce --help)');
    const separator = ctx.string('key-separator');
    if (separator === '') throw new UsageError('--key-separator must not be empty');
    const partition = ctx.integer('partition', 0);
    const acksFlag = ctx.string('acks') ?? 'all';
    const acks = ({ all: -1, '-1': -1, '1': 1, '0': 0 } as const)[acksFlag as 'all'];
    if (acks === undefined) throw new UsageError(`--acks expects all, 1 or 0, got ${JSON.stringify(acksFlag)}`);
    const client = ctx.client();
    const [described] = await client.admin.describeTopics([topic]);
    if (partition !== undefined && !described.partitions.some((p) => p.partition === partition)) {
      throw new UsageError(`topic ${topic} has no partition ${partition}`);
    }
    const producer = client.producer({ acks, ...(acks === -1 ? {} : { idempotent: false }) });
    const bar = progress(ctx.io, `producing to ${topic}`, !ctx.json);
    // Tallied as the answers come (one callback per record, no promise kept per line): memory stays the same
    // however many lines stdin has.
    const byPartition = new Map<number, { partition: number; records: number; first: bigint; last: bigint }>();
    let delivered = 0;
    let failure: { line: number; err: Error } | undefined;
    const tally = (m: RecordMetadata) => {
      delivered++;
      bar.tick();
      const e = byPartition.get(m.partition);
      if (e === undefined) {
        byPartition.set(m.partition, { partition: m.partition, records: 1, first: m.offset, last: m.offset });
        return;
      }
      e.records++;
      if (m.offset < e.first) e.first = m.offset;
      if (m.offset > e.last) e.last = m.offset;
    };
    let lineNo = 0;
    try {
      const lines = createInterface({ input: ctx.io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      for await (const line of lines) {
        lineNo++;
        let key: string | null = null;
        let value = line;
        if (separator !== undefined) {
          const at = line.indexOf(separator);
          if (at < 0) {
            throw new TidemarkError(
              `line ${lineNo} has no key separator ${JSON.stringify(separator)}; the ${plural(lineNo - 1, 'line')} ` +
                'before it were sent',
            );
          }
          key = line.slice(0, at);
          value = line.slice(at + separator.length);
        }
        const sentLine = lineNo;
        producer.send({ topic, key, value, ...(partition === undefined ? {} : { partition }) }, (err, metadata) => {
          // The failure reported is the earliest line's, as the lines were sent.
          if (err !== undefined) {
            if (failure === undefined || sentLine < failure.line) failure = { line: sentLine, err };
          } else tally(metadata as RecordMetadata);
        });
        if (failure !== undefined) break;
        if (producer.backpressure) await producer.waitForCapacity();
      }
    } finally {
      await producer.close();
      bar.done();
    }
    // close() resolved once every record had its answer (flush), so every callback has run.
    if (failure !== undefined) throw failure.err;
    const partitions = [...byPartition.values()].sort((a, b) => a.partition - b.partition);
    if (ctx.json) ctx.printJson({ topic, records: delivered, partitions });
    else ctx.note(`produced ${plural(delivered, 'record')} to ${topic}`);
    return ExitCode.OK;
  },
};
