import * as path from 'node:path';
import { TidemarkError } from '../../../codecs/errors.js';
import type { TopicPartition } from '../../cluster/partition-errors.js';
import { Consumer } from '../../consumer/consumer.js';
import type { ConsumerRecord } from '../../consumer/consumer-record.js';
import { describeRangeEvent, FileOffsetStore } from '../../offsets/index.js';
import type { Command, CommandContext } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';
import { plural, toJson } from '../format.js';

type From = 'earliest' | 'latest' | { offset: bigint } | { timestamp: number };

export const consumeCommand: Command = {
  name: 'consume',
  summary: 'print records of a topic',
  help: `Usage: tidemark consume --topic T [--group G] [--offsets-dir D] [--from earliest|latest|<offset>|<ISO date>]
                        [--max N] [--idle-ms MS] [--format json|value|raw] [--partition P]...

Prints records as they arrive until Ctrl-C (exit 130), --max records, or --idle-ms without a record (exit 0).
A record counts as processed once it is written; processed offsets are committed on the way out, so a run
stopped with Ctrl-C and started again prints every record exactly once.

  -t, --topic T          the topic (required)
  -g, --group G          read as this consumer group: joins it, offsets committed to the broker
      --offsets-dir D    keep the group's offsets in a local file store (<D>/<group>/<topic>/gtoffset)
                         instead; reads every partition (needs --group)
      --from WHERE       earliest (default) or latest: where to start without a stored offset;
                         <offset> or <ISO date>: start there on every partition, stored offsets or not
  -n, --max N            stop after N records
      --idle-ms MS       stop when no record came for MS milliseconds
      --partition P      only these partitions (repeatable; not with a group subscription)
      --format F         json (one object per line, default with --json), value (the value as text, the
                         default) or raw (value bytes, nothing added)`,
  options: {
    topic: { type: 'string', short: 't' },
    group: { type: 'string', short: 'g' },
    'offsets-dir': { type: 'string' },
    from: { type: 'string' },
    max: { type: 'string', short: 'n' },
    'idle-ms': { type: 'string' },
    partition: { type: 'string', multiple: true },
    format: { type: 'string' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const topic = ctx.string('topic');
    if (topic === undefined) throw new UsageError('consume: --topic is required (see tidemark consume --help)');
    const group = ctx.string('group');
    const dir = ctx.string('offsets-dir');
    if (dir !== undefined && group === undefined) throw new UsageError('consume: --offsets-dir needs --group');
    const format = ctx.string('format') ?? (ctx.json ? 'json' : 'value');
    if (!['json', 'value', 'raw'].includes(format)) {
      throw new UsageError(`--format expects json, value or raw, got ${JSON.stringify(format)}`);
    }
    const from = parseFrom(ctx.string('from') ?? 'earliest');
    const max = ctx.integer('max', 1);
    const idleMs = ctx.integer('idle-ms', 1);
    const only = ctx.strings('partition').map((p) => {
      if (!/^\d+$/.test(p)) throw new UsageError(`--partition expects a partition number, got ${JSON.stringify(p)}`);
      return Number(p);
    });
    const subscribe = group !== undefined && dir === undefined;
    if (subscribe && only.length > 0) throw new UsageError('consume: --partition needs --offsets-dir or no --group');

    const client = ctx.client();
    const [described] = await client.admin.describeTopics([topic]);
    const partitions: TopicPartition[] = described.partitions
      .filter((p) => only.length === 0 || only.includes(p.partition))
      .map((p) => ({ topic, partition: p.partition }));
    for (const p of only) {
      if (!partitions.some((q) => q.partition === p)) throw new UsageError(`topic ${topic} has no partition ${p}`);
    }
    const store = dir === undefined ? undefined : new FileOffsetStore({ dir: path.resolve(ctx.io.cwd, dir) });
    const consumer = new Consumer(client, {
      ...(group === undefined ? {} : { groupId: group }),
      ...(store === undefined ? {} : { offsetStore: store }),
      autoOffsetReset: from === 'latest' ? 'latest' : 'earliest',
      offsetOutOfRange: 'clamp',
    });
    consumer.on('offset-reset', (e) => ctx.note(`tidemark: ${describeRangeEvent(e)}`));
    consumer.on('truncation', (e) => ctx.note(`tidemark: ${e.topic}-${e.partition} was truncated: ${toJson(e, 0)}`));
    consumer.on('warning', (e) => ctx.note(`tidemark: warning: ${e.message}`));

    const stop = new AbortController();
    let interrupted = false;
    const unlisten = ctx.io.onInterrupt(() => {
      interrupted = true;
      stop.abort(new TidemarkError('interrupted'));
    });
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      if (idleMs === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(() => stop.abort(new TidemarkError('idle')), idleMs);
    };
    let count = 0;
    try {
      if (subscribe) await consumer.subscribe({ topics: [topic] }, { signal: stop.signal });
      else consumer.assign(partitions);
      if (typeof from === 'object') await seekAll(ctx, consumer, from);
      armIdle();
      for await (const record of consumer.records({ signal: stop.signal })) {
        write(ctx, format, record);
        // Written: processed. A stop after this line commits it; nothing is printed twice.
        consumer.ack(record);
        count++;
        if (max !== undefined && count >= max) break;
        armIdle();
      }
    } catch (err) {
      if (!stop.signal.aborted) throw err;
    } finally {
      clearTimeout(idle);
      unlisten();
      try {
        await consumer.close();
      } finally {
        // The consumer closes only stores it made: this one's locks are released here.
        await store?.close();
      }
    }
    if (!ctx.json || format !== 'json') ctx.note(`consumed ${plural(count, 'record')} from ${topic}`);
    return interrupted ? ExitCode.INTERRUPTED : ExitCode.OK;
  },
};

export function parseFrom(value: string): From {
  if (value === 'earliest' || value === 'latest') return value;
  if (/^\d+$/.test(value)) return { offset: BigInt(value) };
  const time = Date.parse(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value) && Number.isFinite(time)) return { timestamp: time };
  throw new UsageError(`--from expects earliest, latest, an offset or an ISO 8601 date, got ${JSON.stringify(value)}`);
}

async function seekAll(ctx: CommandContext, consumer: Consumer, from: { offset: bigint } | { timestamp: number }) {
  const assigned = consumer.assignment();
  if ('offset' in from) {
    for (const p of assigned) consumer.seek(p, from.offset);
    return;
  }
  const found = await ctx.client().offsets.offsetsForTimes(assigned.map((p) => ({ ...p, timestamp: from.timestamp })));
  const atEnd: TopicPartition[] = [];
  for (const f of found) {
    if (f.offset === null) atEnd.push({ topic: f.topic, partition: f.partition });
    else consumer.seek(f, f.offset);
  }
  if (atEnd.length > 0) consumer.seekToEnd(atEnd);
}

function write(ctx: CommandContext, format: string, r: ConsumerRecord): void {
  if (format === 'raw') {
    if (r.value !== null) ctx.io.stdout.write(r.value as unknown as string);
    return;
  }
  if (format === 'value') {
    ctx.io.stdout.write(`${r.value === null ? '' : r.value.toString('utf8')}\n`);
    return;
  }
  const line = {
    topic: r.topic,
    partition: r.partition,
    offset: r.offset,
    timestamp: r.timestamp,
    key: r.key === null ? null : r.key.toString('utf8'),
    value: r.value === null ? null : r.value.toString('utf8'),
    headers: r.headers.map((h) => ({ key: h.key, value: h.value === null ? null : h.value.toString('utf8') })),
  };
  ctx.io.stdout.write(`${toJson(line, 0)}\n`);
}
