import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseRange } from '../../protocol/versions.js';
import { currentFieldName } from './renamed-fields.js';

/**
 * Kafka's message schemas (`common/message/*.json` in kafka-clients), read
 * the way Kafka's generator reads them (FieldSpec, MessageSpec).
 */

export interface KafkaField {
  name: string;
  type: string;
  versions: string;
  fields?: KafkaField[];
  nullableVersions?: string;
  /** Always a string in Kafka's generator (Jackson coerces numbers and booleans). */
  default?: string;
  ignorable?: boolean;
  tag?: number;
  taggedVersions?: string;
  flexibleVersions?: string;
}

export interface KafkaStruct {
  name: string;
  versions: string;
  fields: KafkaField[];
}

export interface KafkaMessage {
  apiKey?: number;
  type: string;
  name: string;
  validVersions: string;
  flexibleVersions: string;
  /** The highest valid version is still in development and not served by default. */
  latestVersionUnstable?: boolean;
  fields: KafkaField[];
  commonStructs?: KafkaStruct[];
}

/** Drops `//` comments (Kafka's schema files have them; JSON does not), leaving strings alone. */
export function stripComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return out;
}

function normaliseField(raw: Record<string, unknown>): KafkaField {
  const taggedVersions = raw.taggedVersions as string | undefined;
  const f: KafkaField = {
    name: raw.name as string,
    type: raw.type as string,
    // As in FieldSpec: a field with taggedVersions but no versions has versions = taggedVersions.
    versions: (raw.versions as string | undefined) ?? taggedVersions ?? 'none',
  };
  if (raw.fields !== undefined) f.fields = (raw.fields as Record<string, unknown>[]).map(normaliseField);
  if (raw.nullableVersions !== undefined) f.nullableVersions = raw.nullableVersions as string;
  if (raw.default !== undefined) f.default = String(raw.default);
  if (raw.ignorable === true) f.ignorable = true;
  if (raw.tag !== undefined) f.tag = Number(raw.tag);
  if (taggedVersions !== undefined) f.taggedVersions = taggedVersions;
  // FieldSpec treats an empty override as none given.
  if (typeof raw.flexibleVersions === 'string' && raw.flexibleVersions !== '')
    f.flexibleVersions = raw.flexibleVersions;
  return f;
}

export function parseKafkaMessage(text: string): KafkaMessage {
  const raw = JSON.parse(stripComments(text)) as Record<string, unknown>;
  return {
    apiKey: raw.apiKey as number | undefined,
    type: raw.type as string,
    name: raw.name as string,
    validVersions: raw.validVersions as string,
    flexibleVersions: (raw.flexibleVersions as string | undefined) ?? 'none',
    latestVersionUnstable: raw.latestVersionUnstable === true,
    fields: ((raw.fields as Record<string, unknown>[] | undefined) ?? [])
      .map(normaliseField)
      .map((f) => ({ ...f, name: currentFieldName(raw.name as string, f.name) })),
    commonStructs: ((raw.commonStructs as Record<string, unknown>[] | undefined) ?? []).map((s) => ({
      name: s.name as string,
      versions: s.versions as string,
      fields: (s.fields as Record<string, unknown>[]).map(normaliseField),
    })),
  };
}

/** The versions Kafka serves for a message: validVersions less an unstable latest one. */
export function stableVersions(m: KafkaMessage): { min: number; max: number } {
  const r = parseRange(m.validVersions);
  return { min: r.min, max: m.latestVersionUnstable ? r.max - 1 : r.max };
}

const loaded = new Map<string, Promise<Map<string, KafkaMessage>>>();

/** All message schemas in a directory, by message name (e.g. `MetadataRequest`). */
export function loadKafkaSchemas(dir: string): Promise<Map<string, KafkaMessage>> {
  let p = loaded.get(dir);
  if (p === undefined) {
    p = (async () => {
      const out = new Map<string, KafkaMessage>();
      for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
        const m = parseKafkaMessage(await readFile(path.join(dir, file), 'utf8'));
        out.set(m.name, m);
      }
      return out;
    })();
    loaded.set(dir, p);
  }
  return p;
}
