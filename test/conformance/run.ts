import { RequestHeader, ResponseHeader } from '../../protocol/headers.js';
import { API_DEFINITIONS, ConsumerProtocolAssignment, ConsumerProtocolSubscription } from '../../protocol/index.js';
import type { ApiDef, MessageDef } from '../../protocol/schema.js';
import { type CheckOptions, checkTarget, type Release, type Target, type TargetResult } from './check-target.js';
import { KAFKA_VERSIONS, prepareKafka } from './kafka.js';
import { loadKafkaSchemas } from './kafka-schema.js';
import { Oracle } from './oracle.js';

/**
 * Runs both checks (schemas, bytes) for a set of definitions against a set
 * of Kafka releases, sharing one JVM per release across all of them.
 */

export type { Target, TargetResult } from './check-target.js';

export interface SessionOptions {
  /** Default: every release in KAFKA_VERSIONS. */
  kafkaVersions?: readonly string[];
  /** Default: 1. */
  seed?: number;
  /** Random messages per definition, version and direction. Default: 20. */
  messages?: number;
  /** Whether to run the byte check (starts the JVMs). Default: true. */
  bytes?: boolean;
  /** Where to write the first failing message of each byte check, for reproduction. */
  dumpDir?: string;
}

export function apiTarget(api: ApiDef): Target {
  return { name: api.name, key: api.key, messages: [api.request, api.response] };
}

/** Every API in API_DEFINITIONS, both headers, and the other Kafka messages protocol/index.ts exports. */
export function allTargets(): Target[] {
  const message = (def: MessageDef): Target => ({ name: def.name, messages: [def] });
  return [
    ...API_DEFINITIONS.map(apiTarget),
    message(RequestHeader),
    message(ResponseHeader),
    // The classic consumer protocol's embedded messages (JoinGroup/SyncGroup payloads): Kafka schemas too.
    message(ConsumerProtocolSubscription),
    message(ConsumerProtocolAssignment),
  ];
}

/** Kafka releases loaded once (schemas, oracle JVMs), then any number of targets checked. */
export class ConformanceSession {
  private constructor(
    private readonly releases: Release[],
    readonly options: CheckOptions,
  ) {}

  static async open(options: SessionOptions = {}): Promise<ConformanceSession> {
    const kafkaVersions = options.kafkaVersions ?? KAFKA_VERSIONS;
    const opts: CheckOptions = {
      seed: options.seed ?? 1,
      messages: options.messages ?? 20,
      bytes: options.bytes ?? true,
      everyRelease: KAFKA_VERSIONS.every((v) => kafkaVersions.includes(v)),
      dumpDir: options.dumpDir,
    };
    // Newest first, so that results list the newest release first.
    const sorted = [...kafkaVersions].sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
    const loaded = await Promise.allSettled(
      sorted.map(async (version): Promise<Release> => {
        const dist = await prepareKafka(version);
        const schemas = await loadKafkaSchemas(dist.schemaDir);
        return { version, schemas, oracle: opts.bytes ? await Oracle.start(version) : undefined };
      }),
    );
    const releases = loaded.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = loaded.find((r) => r.status === 'rejected');
    if (failed !== undefined) {
      for (const r of releases) r.oracle?.close(); // no JVM left behind
      throw failed.reason;
    }
    return new ConformanceSession(releases, opts);
  }

  check(target: Target): Promise<TargetResult> {
    return checkTarget(target, this.releases, this.options);
  }

  close(): void {
    for (const r of this.releases) r.oracle?.close();
  }
}

export interface RunSummary {
  results: TargetResult[];
  /** Definitions checked (APIs and headers). */
  apis: number;
  /** (definition, version) pairs checked against at least one release. */
  versions: number;
  mismatches: number;
}

/** Checks `targets` (default: all) in order, reporting each result as it completes. */
export async function runConformance(
  options: SessionOptions & { targets?: readonly Target[]; onResult?(r: TargetResult): void } = {},
): Promise<RunSummary> {
  const targets = options.targets ?? allTargets();
  const session = await ConformanceSession.open(options);
  try {
    // Two targets in flight: Node generates and compares one while the JVMs serialize the other.
    const results: TargetResult[] = [];
    const running: Promise<TargetResult>[] = [];
    for (let i = 0; i < targets.length; i++) {
      running[i] ??= session.check(targets[i]);
      if (i + 1 < targets.length) running[i + 1] = session.check(targets[i + 1]);
      const r = await running[i];
      results.push(r);
      options.onResult?.(r);
    }
    return {
      results,
      apis: results.length,
      versions: results.reduce((n, r) => n + r.versions.length, 0),
      mismatches: results.reduce((n, r) => n + r.mismatches.length, 0),
    };
  } finally {
    session.close();
  }
}

/** Targets named in `names`, failing on a name that matches none. */
export function selectTargets(targets: readonly Target[], names: readonly string[]): Target[] {
  const unknown = names.filter((n) => !targets.some((t) => t.name === n));
  if (unknown.length > 0) {
    throw new Error(`no definition named ${unknown.join(', ')} (have: ${targets.map((t) => t.name).join(', ')})`);
  }
  return targets.filter((t) => names.includes(t.name));
}
