/**
 * Top-level fields a later Kafka release renamed without changing their bytes. tidemark uses the newest name;
 * for an older release the conformance check reads its schema, and talks to its serializers, under that name.
 */
interface RenamedField {
  /** Kafka's message name, e.g. `TxnOffsetCommitRequest`. */
  message: string;
  /** The older release's schema name (as in its JSON files). */
  oldName: string;
  /** The name Kafka and tidemark use now. */
  name: string;
  /** The first Kafka major version with the new name. */
  renamedIn: number;
}

const RENAMED_FIELDS: readonly RenamedField[] = [
  // Kafka 4.0 (KIP-848) renamed it: under the consumer protocol it carries the member epoch.
  { message: 'TxnOffsetCommitRequest', oldName: 'GenerationId', name: 'GenerationIdOrMemberEpoch', renamedIn: 4 },
];

const jsonName = (schemaName: string) => schemaName.charAt(0).toLowerCase() + schemaName.slice(1);

/** The current name for a field of `message` read from a (possibly older) Kafka schema. */
export function currentFieldName(message: string, schemaName: string): string {
  return RENAMED_FIELDS.find((r) => r.message === message && r.oldName === schemaName)?.name ?? schemaName;
}

/**
 * Renames a message's top-level keys between tidemark's names and those of Kafka `release` (`toRelease`: for
 * its serializer; else back from its JSON). A no-op for a release that already uses the new names.
 */
export function renameForRelease(release: string, message: string, json: unknown, toRelease: boolean): unknown {
  if (json === null || typeof json !== 'object') return json;
  let out = json as Record<string, unknown>;
  const major = Number(release.split('.')[0]);
  for (const r of RENAMED_FIELDS) {
    if (r.message !== message || major >= r.renamedIn) continue;
    const [from, to] = toRelease ? [jsonName(r.name), jsonName(r.oldName)] : [jsonName(r.oldName), jsonName(r.name)];
    if (!(from in out)) continue;
    const { [from]: value, ...rest } = out;
    out = { ...rest, [to]: value };
  }
  return out;
}
