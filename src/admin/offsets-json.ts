import type { CallOptions } from '../cluster/deadline.js';
import { fetchCommittedOffsets } from '../commit/offset-fetch.js';
import type { GroupAdminContext } from './group-context.js';
import { InvalidOffsetsExportError } from './group-errors.js';
import { type ResetPlan, resetGroupOffsets } from './reset-offsets.js';

export const OFFSETS_EXPORT_FORMAT = 'tidemark.group-offsets';

/** One partition of an export. Offsets are decimal strings: JSON numbers lose precision past 2^53. */
export interface ExportedOffset {
  topic: string;
  partition: number;
  offset: string;
  leaderEpoch: number | null;
  metadata: string | null;
}

/** A group's committed offsets as a JSON document (`JSON.stringify` it as it is). */
export interface OffsetsExport {
  format: typeof OFFSETS_EXPORT_FORMAT;
  version: 1;
  groupId: string;
  /** ISO-8601 time of the export. */
  exportedAt: string;
  /** Sorted by topic and partition. */
  offsets: ExportedOffset[];
}

/** Every committed offset of a group, ready for `JSON.stringify`. */
export async function exportGroupOffsets(
  ctx: GroupAdminContext,
  groupId: string,
  options: CallOptions = {},
): Promise<OffsetsExport> {
  const committed = (await fetchCommittedOffsets(ctx, [{ groupId }], options)).get(groupId) ?? [];
  return {
    format: OFFSETS_EXPORT_FORMAT,
    version: 1,
    groupId,
    exportedAt: new Date().toISOString(),
    offsets: committed.flatMap((c) =>
      c.offset === null
        ? []
        : [
            {
              topic: c.topic,
              partition: c.partition,
              offset: c.offset.toString(),
              leaderEpoch: c.leaderEpoch,
              metadata: c.metadata,
            },
          ],
    ),
  };
}

export interface ImportOffsetsOptions extends CallOptions {
  /** Import into this group instead of the one the export names. */
  groupId?: string;
  /** Return the plan without committing. */
  dryRun?: boolean;
}

/**
 * Commits the offsets of an export (a JSON string or the parsed object) to the group it names, or to
 * `options.groupId`. The rules of a reset apply: only inactive groups, offsets outside the log moved to its
 * nearest end, and the returned plan lists exactly what was (or, dry run, would be) committed.
 */
export async function importGroupOffsets(
  ctx: GroupAdminContext,
  input: string | OffsetsExport,
  options: ImportOffsetsOptions = {},
): Promise<ResetPlan> {
  const doc = parseOffsetsExport(input);
  const offsets = doc.offsets.map((o) => ({
    topic: o.topic,
    partition: o.partition,
    offset: BigInt(o.offset),
    leaderEpoch: o.leaderEpoch,
    metadata: o.metadata,
  }));
  const { groupId, dryRun, ...call } = options;
  return resetGroupOffsets(ctx, groupId ?? doc.groupId, { offsets }, { ...call, dryRun });
}

/** Checks a document against the export format; every problem is an InvalidOffsetsExportError naming it. */
export function parseOffsetsExport(input: unknown): OffsetsExport {
  let doc: unknown = input;
  if (typeof input === 'string') {
    try {
      doc = JSON.parse(input);
    } catch (err) {
      throw new InvalidOffsetsExportError(`not JSON (${(err as Error).message})`, { cause: err });
    }
  }
  if (typeof doc !== 'object' || doc === null) throw new InvalidOffsetsExportError('expected a JSON object');
  const d = doc as Record<string, unknown>;
  if (d.format !== OFFSETS_EXPORT_FORMAT) {
    throw new InvalidOffsetsExportError(`format is ${JSON.stringify(d.format)}, expected "${OFFSETS_EXPORT_FORMAT}"`);
  }
  if (d.version !== 1) throw new InvalidOffsetsExportError(`unsupported version ${JSON.stringify(d.version)}`);
  if (typeof d.groupId !== 'string' || d.groupId === '') throw new InvalidOffsetsExportError('groupId is missing');
  if (!Array.isArray(d.offsets)) throw new InvalidOffsetsExportError('offsets must be an array');
  const seen = new Set<string>();
  d.offsets.forEach((o: unknown, i: number) => {
    const where = `offsets[${i}]`;
    if (typeof o !== 'object' || o === null) throw new InvalidOffsetsExportError(`${where} is not an object`);
    const e = o as Record<string, unknown>;
    if (typeof e.topic !== 'string' || e.topic === '') throw new InvalidOffsetsExportError(`${where}.topic is missing`);
    if (!Number.isInteger(e.partition) || (e.partition as number) < 0) {
      throw new InvalidOffsetsExportError(`${where}.partition must be an integer >= 0`);
    }
    if (typeof e.offset !== 'string' || !/^\d{1,19}$/.test(e.offset) || BigInt(e.offset) > 2n ** 63n - 1n) {
      throw new InvalidOffsetsExportError(`${where}.offset must be a decimal string of an int64 >= 0`);
    }
    if (e.leaderEpoch != null && (!Number.isInteger(e.leaderEpoch) || (e.leaderEpoch as number) < -1)) {
      throw new InvalidOffsetsExportError(`${where}.leaderEpoch must be an integer or null`);
    }
    if (e.metadata != null && typeof e.metadata !== 'string') {
      throw new InvalidOffsetsExportError(`${where}.metadata must be a string or null`);
    }
    const key = `${e.topic}\u0000${e.partition}`;
    if (seen.has(key)) throw new InvalidOffsetsExportError(`${where} repeats ${e.topic}-${e.partition}`);
    seen.add(key);
  });
  return d as unknown as OffsetsExport;
}
