import { ProtocolError } from '../codecs/errors.js';

/**
 * A version range in the spec's notation: `"3+"` (3 and later), `"0-7"`,
 * `"5"` (only 5) or `"none"`.
 */
export type VersionRange = string;

export interface Range {
  min: number;
  /** Inclusive; `Infinity` for an open range. */
  max: number;
}

const NONE: Range = { min: 1, max: 0 };
const cache = new Map<string, Range>();

export function parseRange(text: VersionRange): Range {
  let r = cache.get(text);
  if (r !== undefined) return r;
  const m = /^(\d+)(?:(\+)|-(\d+))?$/.exec(text);
  if (text === 'none') r = NONE;
  else if (m === null) throw new ProtocolError(`invalid version range ${JSON.stringify(text)}`);
  else {
    const min = Number(m[1]);
    r = { min, max: m[2] === '+' ? Number.POSITIVE_INFINITY : m[3] !== undefined ? Number(m[3]) : min };
  }
  cache.set(text, r);
  return r;
}

export function inRange(text: VersionRange | undefined, version: number): boolean {
  if (text === undefined) return false;
  const r = parseRange(text);
  return version >= r.min && version <= r.max;
}
