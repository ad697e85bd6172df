import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { InvalidOffsetStoreNameError } from '../errors.js';

/**
 * Group ids (any string) and topic names (`[a-zA-Z0-9._-]{1,249}`) as one directory name each, so that the
 * SEO layout `<dir>/<group>/<topic>/gtoffset` is safe for every legal name:
 *
 * - `a-z`, `0-9`, `_` stay as they are; `-` too, except first (a file named `-x` reads as an option to tools);
 *   `.` too, except first (hidden, `.`, `..`) or last (Windows drops trailing dots);
 * - an upper-case letter becomes `^` + its lower-case form (`Orders` → `^orders`), so the output holds no
 *   upper case at all and `Foo`/`foo` stay distinct on case-insensitive filesystems (macOS, Windows);
 * - every other character becomes its UTF-8 bytes as `%hh`, lower-case hex (`/` → `%2f`, NUL → `%00`,
 *   `é` → `%c3%a9`): the output is ASCII, so no Unicode normalisation (HFS+ NFD) can merge two names;
 * - a Windows device name (`con`, `nul`, `com1`, … before the first dot) gets its first letter escaped;
 * - the empty group id (legal in Kafka, deprecated) is `%empty`;
 * - an encoding longer than 200 bytes (filesystems allow 255; the rest is headroom for tools that append
 *   suffixes) becomes a readable 128-byte prefix + `%sha256-` + the SHA-256 of the name's UTF-8 bytes. That
 *   form is not reversible from the path alone, so the gtoffset file stores the real names and the store
 *   verifies them on load.
 *
 * Every output is unique, because the encoding is a prefix code whose escapes (`%hh`, `^x`, `%empty`,
 * `%sha256-`) never collide, and `decodeName` accepts only canonical encodings.
 */

export const MAX_SEGMENT_BYTES = 200;
const HASHED_PREFIX_BYTES = 128;
const HASH_MARK = '%sha256-';
const EMPTY = '%empty';
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function hex(byte: number): string {
  return `%${byte.toString(16).padStart(2, '0')}`;
}

function escapeUtf8(char: string): string {
  let out = '';
  for (const byte of Buffer.from(char, 'utf8')) out += hex(byte);
  return out;
}

/** The exact (unhashed) encoding, however long. */
function encodeExact(name: string): string {
  const chars = Array.from(name); // code points, so a surrogate pair is escaped as one UTF-8 sequence
  let out = '';
  chars.forEach((c, i) => {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '_') out += c;
    else if (c >= 'A' && c <= 'Z') out += `^${c.toLowerCase()}`;
    else if (c === '-') out += i === 0 ? escapeUtf8(c) : c;
    else if (c === '.') out += i === 0 || i === chars.length - 1 ? escapeUtf8(c) : c;
    else out += escapeUtf8(c);
  });
  const stem = out.split('.')[0];
  if (WINDOWS_DEVICE.test(stem)) out = escapeUtf8(out[0]) + out.slice(1);
  return out;
}

/** The longest prefix of `encoded` of at most `max` bytes that does not cut an escape in half. */
function prefixOf(encoded: string, max: number): string {
  let end = 0;
  while (end < encoded.length) {
    const width = encoded[end] === '%' ? 3 : encoded[end] === '^' ? 2 : 1;
    if (end + width > max) break;
    end += width;
  }
  return encoded.slice(0, end);
}

/** The directory name for a group id or topic name. Throws for a string that UTF-8 cannot carry. */
export function encodeName(name: string): string {
  if (LONE_SURROGATE.test(name)) {
    // Kafka sends names as UTF-8, where a lone surrogate has no encoding: no broker can hold such a name.
    throw new InvalidOffsetStoreNameError(`name ${JSON.stringify(name)} contains a lone UTF-16 surrogate`);
  }
  if (name === '') return EMPTY;
  const exact = encodeExact(name);
  if (exact.length <= MAX_SEGMENT_BYTES) return exact;
  const digest = createHash('sha256').update(name, 'utf8').digest('hex');
  return prefixOf(exact, HASHED_PREFIX_BYTES) + HASH_MARK + digest;
}

export type DecodedName =
  | { kind: 'exact'; name: string }
  /** An over-long name: only the readable start is known; the real name is inside the gtoffset file. */
  | { kind: 'hashed'; prefix: string }
  | { kind: 'invalid' };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes an escaped run stands for, or undefined when it is not a well-formed sequence of tokens. */
function tokensToBytes(segment: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; ) {
    const c = segment[i];
    if (c === '%') {
      const pair = segment.slice(i + 1, i + 3);
      if (!/^[0-9a-f]{2}$/.test(pair)) return undefined;
      bytes.push(Number.parseInt(pair, 16));
      i += 3;
    } else if (c === '^') {
      const letter = segment[i + 1] ?? '';
      if (!/^[a-z]$/.test(letter)) return undefined;
      bytes.push(letter.toUpperCase().charCodeAt(0));
      i += 2;
    } else if (/^[a-z0-9._-]$/.test(c)) {
      bytes.push(c.charCodeAt(0));
      i += 1;
    } else {
      return undefined;
    }
  }
  return Uint8Array.from(bytes);
}

function decodeTokens(segment: string): string | undefined {
  const bytes = tokensToBytes(segment);
  if (bytes === undefined) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The name a directory name stands for; `invalid` for anything `encodeName` would not have produced. */
export function decodeName(segment: string): DecodedName {
  if (segment === EMPTY) return { kind: 'exact', name: '' };
  const mark = segment.indexOf(HASH_MARK);
  if (mark >= 0) {
    const prefix = segment.slice(0, mark);
    const digest = segment.slice(mark + HASH_MARK.length);
    if (!/^[0-9a-f]{64}$/.test(digest) || prefix.length > HASHED_PREFIX_BYTES) return { kind: 'invalid' };
    // A prefix may end inside a multi-byte character: show what decodes, never guess.
    const bytes = tokensToBytes(prefix);
    if (bytes === undefined) return { kind: 'invalid' };
    return { kind: 'hashed', prefix: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
  }
  const name = decodeTokens(segment);
  if (name === undefined || name === '' || encodeName(name) !== segment) return { kind: 'invalid' };
  return { kind: 'exact', name };
}

/** The file names inside one (group, topic) directory. */
export const GTOFFSET = 'gtoffset';
export const GTOFFSET_BACKUP = 'gtoffset.bak';
export const GTOFFSET_LOCK = 'gtoffset.lock';

export interface OffsetFilePaths {
  dir: string;
  file: string;
  backup: string;
  lock: string;
}

/** `<root>/<group>/<topic>/{gtoffset,gtoffset.bak,gtoffset.lock}` with both names encoded. */
export function offsetFilePaths(root: string, group: string, topic: string): OffsetFilePaths {
  const dir = path.join(path.resolve(root), encodeName(group), encodeName(topic));
  return {
    dir,
    file: path.join(dir, GTOFFSET),
    backup: path.join(dir, GTOFFSET_BACKUP),
    lock: path.join(dir, GTOFFSET_LOCK),
  };
}
