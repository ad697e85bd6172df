import type { MessageDef } from '../../protocol/schema.js';
import { parseRange } from '../../protocol/versions.js';
import { checkBytesVersion } from './bytes-check.js';
import { type KafkaMessage, stableVersions } from './kafka-schema.js';
import { annotate } from './known.js';
import type { Mismatch } from './mismatch.js';
import type { Oracle } from './oracle.js';
import { checkSchemaVersion } from './schema-check.js';

/**
 * Checks one target (an API's request and response, or a header) against a
 * set of Kafka releases. Each claimed version is checked against every given
 * release that serves it: the schema check is cheap, and the byte check runs
 * in both JVMs side by side. A claimed version that no release serves is a
 * mismatch when every known release is given.
 */

/** What is checked: an API (request and response) or a header. */
export interface Target {
  name: string;
  key?: number;
  messages: readonly MessageDef[];
}

export interface TargetResult {
  name: string;
  /** Claimed versions checked against at least one release. */
  versions: number[];
  schemaChecks: number;
  bytesChecks: number;
  mismatches: Mismatch[];
  /** Things worth knowing that are not faults (e.g. versions Kafka serves that tidemark does not claim). */
  notes: string[];
}

export interface CheckOptions {
  seed: number;
  messages: number;
  bytes: boolean;
  /** Whether every known Kafka release takes part (else a version no given release serves is skipped). */
  everyRelease: boolean;
  /** Where the byte check writes each first failing message (none when unset). */
  dumpDir?: string;
}

export interface Release {
  version: string;
  schemas: Map<string, KafkaMessage>;
  oracle?: Oracle;
}

export async function checkTarget(target: Target, releases: Release[], opts: CheckOptions): Promise<TargetResult> {
  const result: TargetResult = {
    name: target.name,
    versions: [],
    schemaChecks: 0,
    bytesChecks: 0,
    mismatches: [],
    notes: [],
  };
  const checked = new Set<number>();
  const bytes: Promise<Mismatch[]>[] = [];
  const fault = (def: MessageDef, version: number, kafka: string, what: string) =>
    result.mismatches.push({ kind: 'schema', api: target.name, message: def.name, version, kafka, path: '', what });
  for (const def of target.messages) {
    const served = releases.map((r) => ({ r, schema: r.schemas.get(def.name) }));
    const kafkaNames = releases.map((r) => r.version).join(' or ');
    if (served.every((s) => s.schema === undefined)) {
      fault(def, -1, kafkaNames, `Kafka ${kafkaNames} has no message ${def.name}`);
      continue;
    }
    let claimed = parseRange(def.validVersions);
    if (claimed.max === Number.POSITIVE_INFINITY) {
      fault(
        def,
        -1,
        kafkaNames,
        `validVersions ${def.validVersions} is open-ended; a definition must name its highest version`,
      );
      const top = Math.max(...served.map((s) => (s.schema === undefined ? 0 : stableVersions(s.schema).max)));
      claimed = { min: claimed.min, max: top };
    }
    for (const { r, schema } of served) {
      if (schema === undefined) continue;
      if (target.key !== undefined && schema.apiKey !== target.key) {
        fault(def, -1, r.version, `API key: Kafka ${schema.apiKey}, tidemark ${target.key}`);
      }
      const stable = stableVersions(schema);
      const unclaimed: number[] = [];
      for (let v = stable.min; v <= stable.max; v++) if (v < claimed.min || v > claimed.max) unclaimed.push(v);
      if (unclaimed.length > 0)
        result.notes.push(`${def.name}: Kafka ${r.version} also serves v${unclaimed.join(',')}`);
    }
    for (let v = claimed.min; v <= claimed.max; v++) {
      const servers = served.filter(
        (s) => s.schema !== undefined && v >= stableVersions(s.schema).min && v <= stableVersions(s.schema).max,
      );
      if (servers.length === 0) {
        if (!opts.everyRelease) continue; // another release may serve it; not checked in this run
        const unstable = served.some(
          (s) => s.schema?.latestVersionUnstable && parseRange(s.schema.validVersions).max === v,
        );
        fault(
          def,
          v,
          kafkaNames,
          `version ${v} is not served by Kafka ${kafkaNames}${unstable ? ' (only as an unstable latest version)' : ''}`,
        );
        continue;
      }
      checked.add(v);
      for (const { r, schema } of servers) {
        result.schemaChecks++;
        result.mismatches.push(...checkSchemaVersion(target.name, def, schema!, r.version, v));
        if (opts.bytes && r.oracle !== undefined) {
          result.bytesChecks++;
          bytes.push(
            checkBytesVersion(target.name, def, v, r.oracle, {
              seed: opts.seed,
              messages: opts.messages,
              dumpDir: opts.dumpDir,
            }),
          );
        }
      }
    }
  }
  for (const found of await Promise.all(bytes)) result.mismatches.push(...found);
  result.mismatches = result.mismatches.map(annotate);
  result.versions = [...checked].sort((a, b) => a - b);
  return result;
}
