import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidOffsetStoreNameError } from '../../../src/offsets/errors.js';
import { decodeName, encodeName, MAX_SEGMENT_BYTES, offsetFilePaths } from '../../../src/offsets/file/path-encoding.js';
import { useTempDirs } from './helpers.js';

const tempDir = useTempDirs();

const awkward = [
  'orders',
  'Orders',
  'ORDERS',
  'oRdErS',
  'a/b',
  '/',
  '../../etc',
  '..',
  '.',
  '...',
  '.hidden',
  'trailing.',
  'a..b',
  '-dash',
  'in-dash',
  '_under',
  'back\\slash',
  'nul\0byte',
  '\0',
  'con',
  'CON',
  'nul.txt',
  'com1',
  'lpt9.x',
  'café',
  'cafe\u0301', // the same word in NFD: must stay distinct from NFC
  '日本語のグループ',
  '😀 emoji',
  '\ufeffbom',
  'sp ace',
  'tab\tnew\nline',
  '%2f',
  '%empty',
  '^orders',
  'x%sha256-0000',
  '',
  ' ',
  'a:b*c?d"e<f>g|h',
  't'.repeat(249),
  'T'.repeat(249),
  'g'.repeat(10_000),
  'é'.repeat(10_000),
  `${'g'.repeat(10_000)}x`,
];

describe('encodeName', () => {
  it('keeps plain lower-case names readable', () => {
    expect(encodeName('orders')).toBe('orders');
    expect(encodeName('billing.events-v2_1')).toBe('billing.events-v2_1');
    expect(encodeName('Orders')).toBe('^orders');
  });

  it('maps every awkward name to a distinct, safe, case-insensitively distinct segment', () => {
    const seen = new Map<string, string>();
    for (const name of awkward) {
      const segment = encodeName(name);
      expect(segment.length).toBeGreaterThan(0);
      expect(Buffer.byteLength(segment)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
      expect(segment).toMatch(/^[a-z0-9._%^-]+$/); // ASCII, no upper case, no separators
      expect(segment).not.toMatch(/^[.-]|\.$/);
      expect(['.', '..']).not.toContain(segment);
      expect(segment.split('.')[0]).not.toMatch(/^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/);
      const folded = segment.toLowerCase();
      expect(seen.get(folded), `${JSON.stringify(name)} collides`).toBeUndefined();
      seen.set(folded, name);
    }
  });

  it('round-trips exact names and marks over-long ones as hashed with a readable prefix', () => {
    for (const name of awkward) {
      const decoded = decodeName(encodeName(name));
      if (decoded.kind === 'exact') expect(decoded.name).toBe(name);
      else {
        expect(decoded.kind).toBe('hashed');
        expect(name.startsWith(decoded.kind === 'hashed' ? decoded.prefix.replace(/\uFFFD$/, '') : '?')).toBe(true);
      }
    }
    expect(decodeName(encodeName('t'.repeat(249))).kind).toBe('hashed');
    expect(decodeName(encodeName('t'.repeat(200))).kind).toBe('exact');
  });

  it('refuses strings that UTF-8 cannot carry', () => {
    expect(() => encodeName('lone \ud800 surrogate')).toThrow(InvalidOffsetStoreNameError);
    expect(encodeName('pair \ud83d\ude00')).toBe('pair%20%f0%9f%98%80');
  });

  it('decodes only canonical segments', () => {
    for (const bad of [
      '',
      'Orders',
      '%61',
      '%2F',
      '%2',
      '^A',
      '^1',
      'a/b',
      '.x',
      'x%2d',
      '%ff',
      '%c3',
      'a%sha256-12',
    ]) {
      expect(decodeName(bad).kind, bad).toBe('invalid');
    }
  });
});

describe('offsetFilePaths', () => {
  it('keeps every path under the root, creates real distinct directories, and survives the filesystem', () => {
    const root = tempDir();
    const made = new Set<string>();
    for (const group of awkward) {
      for (const topic of ['t', 'T', 'x'.repeat(249), '..']) {
        const paths = offsetFilePaths(root, group, topic);
        const resolved = path.resolve(paths.file);
        expect(resolved.startsWith(path.resolve(root) + path.sep)).toBe(true);
        expect(path.relative(root, resolved).split(path.sep)).toHaveLength(3);
        mkdirSync(paths.dir, { recursive: true });
        writeFileSync(paths.file, JSON.stringify({ group, topic }));
        expect(made.has(paths.dir)).toBe(false);
        made.add(paths.dir);
      }
    }
    // Every group directory the filesystem shows decodes back to one of the names (or is a hash).
    for (const entry of readdirSync(root)) {
      const decoded = decodeName(entry);
      expect(decoded.kind).not.toBe('invalid');
      if (decoded.kind === 'exact') expect(awkward).toContain(decoded.name);
    }
    expect(readdirSync(root)).toHaveLength(awkward.length);
  });
});
