import { crc32c } from '../../../codecs/crc.js';
import { INT32_MAX, INT64_MAX } from '../../../codecs/limits.js';
import { CorruptOffsetFileError } from '../errors.js';
import type { StoredOffset } from '../offset-store.js';

/**
 * The gtoffset file, version 1: UTF-8 text, `\n` line ends, every line ending in `\n` (FORMAT.md has the
 * full description). Example:
 *
 * ```
 * tidemark-gtoffset 1
 * group "billing"
 * topic "orders"
 * # partition offset leader-epoch committed-at [metadata]
 * 0 1200 5 2024-05-01T12:00:00.000Z
 * 1 1180 - 2024-05-01T12:00:00.120Z "batch 17"
 * checksum crc32c:0a1b2c3d
 * ```
 *
 * - names and metadata are JSON string literals in canonical `JSON.stringify` form, so any group id fits
 *   on one line and the group and topic the file belongs to can be checked against the directory;
 * - one line per partition, strictly ascending: partition (int32), offset (the next record to read,
 *   int64 ≥ 0), leader epoch (int32 or `-`), commit time (ISO 8601 UTC with milliseconds), metadata
 *   (optional, omitted when empty); numbers in plain decimal without leading zeros;
 * - the last line is the CRC-32C of every byte before it, 8 lower-case hex digits.
 *
 * Parsing is strict and has a single canonical form per content: anything else (bad checksum, unknown
 * version, truncation, duplicates, stray spaces, trailing lines) is a `CorruptOffsetFileError`, because a
 * file that is "almost" right is one whose offsets cannot be trusted.
 */

export const FORMAT_MAGIC = 'tidemark-gtoffset';
export const FORMAT_VERSION = 1;
const COLUMNS = '# partition offset leader-epoch committed-at [metadata]';
/** 9999-12-31T23:59:59.999Z: the last instant `toISOString` writes with a four-digit year. */
const MAX_TIME = 253402300799999;

export interface GtoffsetContent {
  group: string;
  topic: string;
  partitions: ReadonlyMap<number, StoredOffset>;
}

function checksumLine(bytes: Uint8Array): string {
  return `checksum crc32c:${crc32c(bytes).toString(16).padStart(8, '0')}`;
}

/** The file's bytes for `content`. Throws TypeError for values the format cannot hold (a bug upstream). */
export function serializeGtoffset(content: GtoffsetContent): Buffer {
  const lines = [
    `${FORMAT_MAGIC} ${FORMAT_VERSION}`,
    `group ${JSON.stringify(content.group)}`,
    `topic ${JSON.stringify(content.topic)}`,
    COLUMNS,
  ];
  const partitions = [...content.partitions.keys()].sort((a, b) => a - b);
  for (const p of partitions) {
    const v = content.partitions.get(p)!;
    if (!Number.isInteger(p) || p < 0 || p > INT32_MAX) throw new TypeError(`partition ${p} is not an int32 >= 0`);
    if (v.offset < 0n || v.offset > INT64_MAX) throw new TypeError(`offset ${v.offset} is not an int64 >= 0`);
    if (!Number.isInteger(v.committedAt) || v.committedAt < 0 || v.committedAt > MAX_TIME) {
      throw new TypeError(`commit time ${v.committedAt} is out of range`);
    }
    const epoch = v.leaderEpoch === null ? '-' : String(v.leaderEpoch);
    const metadata = v.metadata === undefined || v.metadata === '' ? '' : ` ${JSON.stringify(v.metadata)}`;
    lines.push(`${p} ${v.offset} ${epoch} ${new Date(v.committedAt).toISOString()}${metadata}`);
  }
  const body = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  return Buffer.concat([body, Buffer.from(`${checksumLine(body)}\n`, 'ascii')]);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A canonical JSON string literal, or undefined. */
function jsonString(raw: string): string | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' && JSON.stringify(value) === raw ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The content of a gtoffset file. `expected`, when given, is the group and topic the file must belong to
 * (a file copied into the wrong directory, or an over-long name whose directory is a hash, is caught here).
 */
export function parseGtoffset(
  bytes: Uint8Array,
  file: string,
  expected?: { group: string; topic: string },
): GtoffsetContent {
  const fail = (problem: string): never => {
    throw new CorruptOffsetFileError(file, problem);
  };
  if (bytes.length === 0) fail('empty file');
  const firstEnd = bytes.indexOf(0x0a);
  const first = Buffer.from(bytes.subarray(0, firstEnd < 0 ? bytes.length : firstEnd)).toString('latin1');
  const magic = /^tidemark-gtoffset (0|[1-9][0-9]{0,8})$/.exec(first);
  if (magic === null) {
    fail(firstEnd < 0 && `${FORMAT_MAGIC} 1`.startsWith(first) ? 'truncated in the first line' : 'not a gtoffset file');
  }
  if (Number(magic![1]) !== FORMAT_VERSION) fail(`unknown format version ${magic![1]} (this tidemark reads 1)`);
  if (bytes[bytes.length - 1] !== 0x0a) fail('truncated: the last line has no line end');
  // Newline bytes never occur inside a multi-byte UTF-8 sequence, so byte positions are safe to split on.
  const lastStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  const last = Buffer.from(bytes.subarray(lastStart, bytes.length - 1)).toString('latin1');
  const sum = /^checksum crc32c:([0-9a-f]{8})$/.exec(last);
  if (sum === null) fail('truncated: no checksum line at the end');
  const body = bytes.subarray(0, lastStart);
  const computed = crc32c(body).toString(16).padStart(8, '0');
  if (computed !== sum![1]) fail(`checksum mismatch: file says ${sum![1]}, content has ${computed}`);

  let text = '';
  try {
    text = utf8.decode(body);
  } catch {
    fail('not valid UTF-8');
  }
  const lines = text.slice(0, -1).split('\n');
  const nameLine = (index: number, key: string): string => {
    const line = lines[index] ?? '';
    const value = line.startsWith(`${key} `) ? jsonString(line.slice(key.length + 1)) : undefined;
    return value ?? fail(`line ${index + 1}: expected ${key} "<name>"`);
  };
  const group = nameLine(1, 'group');
  const topic = nameLine(2, 'topic');
  if (lines[3] !== COLUMNS) fail(`line 4: expected the column header "${COLUMNS}"`);
  if (expected !== undefined && expected.group !== group) {
    fail(`belongs to group ${JSON.stringify(group)}, not ${JSON.stringify(expected.group)}`);
  }
  if (expected !== undefined && expected.topic !== topic) {
    fail(`belongs to topic ${JSON.stringify(topic)}, not ${JSON.stringify(expected.topic)}`);
  }

  const partitions = new Map<number, StoredOffset>();
  let previous = -1;
  for (let i = 4; i < lines.length; i++) {
    const at = `line ${i + 1}`;
    const fields = lines[i].split(' ');
    if (fields.length < 4) fail(`${at}: expected "partition offset leader-epoch committed-at [metadata]"`);
    const [p, o, e, t] = fields;
    if (!DECIMAL.test(p) || Number(p) > INT32_MAX) fail(`${at}: partition ${JSON.stringify(p)} is not an int32 >= 0`);
    const partition = Number(p);
    if (partition === previous) fail(`${at}: duplicate partition ${partition}`);
    if (partition < previous) fail(`${at}: partition ${partition} out of order (after ${previous})`);
    previous = partition;
    if (!DECIMAL.test(o) || BigInt(o) > INT64_MAX) fail(`${at}: offset ${JSON.stringify(o)} is not an int64 >= 0`);
    if (e !== '-' && (!DECIMAL.test(e) || Number(e) > INT32_MAX)) {
      fail(`${at}: leader epoch ${JSON.stringify(e)} is not an int32 >= 0 or "-"`);
    }
    const time = ISO_TIME.test(t) ? Date.parse(t) : Number.NaN;
    if (Number.isNaN(time) || new Date(time).toISOString() !== t) fail(`${at}: bad commit time ${JSON.stringify(t)}`);
    const value: StoredOffset = { offset: BigInt(o), leaderEpoch: e === '-' ? null : Number(e), committedAt: time };
    if (fields.length > 4) {
      const metadata = jsonString(fields.slice(4).join(' '));
      if (metadata === undefined || metadata === '') fail(`${at}: metadata is not a non-empty JSON string`);
      value.metadata = metadata;
    }
    partitions.set(partition, value);
  }
  return { group, topic, partitions };
}
