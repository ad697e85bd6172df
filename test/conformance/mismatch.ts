/** One way a tidemark definition disagrees with Apache Kafka. */
export interface Mismatch {
  /** `schema`: the definition against Kafka's JSON schema; `bytes`: against Kafka's serializers. */
  kind: 'schema' | 'bytes';
  /** The API (e.g. `Metadata`) or header (`RequestHeader`) being checked. */
  api: string;
  /** Kafka's message name, e.g. `MetadataRequest`. */
  message: string;
  /** The version, or -1 for a fault of the whole definition. */
  version: number;
  /** The Kafka release compared against. */
  kafka: string;
  /** Dotted field path; empty for the message itself. */
  path: string;
  what: string;
  /** The example behind it (values, offsets, which message): shown, but not part of what folds. */
  detail?: string;
  /** Set when the fault is known and lies outside the definition (e.g. a compiler bug). */
  known?: string;
}

/** A readable one-line form. */
export function formatMismatch(m: Mismatch): string {
  const where = `${m.message}${m.version >= 0 ? ` v${m.version}` : ''}${m.path === '' ? '' : ` ${m.path}`}`;
  const known = m.known === undefined ? '' : ` (known: ${m.known})`;
  return `[${m.kind}, Kafka ${m.kafka}] ${where}: ${m.what}${known}${m.detail === undefined ? '' : ` — ${m.detail}`}`;
}

/**
 * Folds mismatches that differ only in version into one line each
 * ("... v3-5,7: ..."), so a wrong field reads as one finding, not twenty.
 */
export function groupMismatches(list: readonly Mismatch[]): string[] {
  const groups = new Map<string, { first: Mismatch; versions: number[] }>();
  for (const m of list) {
    const key = JSON.stringify([m.kind, m.kafka, m.message, m.path, m.what, m.known]);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { first: m, versions: [m.version] });
    else g.versions.push(m.version);
  }
  return [...groups.values()].map(({ first, versions }) => {
    // The detail is the first version's example; the other versions fail the same way.
    const line = formatMismatch({ ...first, version: -1, detail: undefined });
    const example =
      first.detail === undefined ? '' : ` — ${versions.length > 1 ? `e.g. v${first.version}: ` : ''}${first.detail}`;
    if (versions.every((v) => v < 0)) return line + example;
    return line.replace(first.message, `${first.message} v${compactVersions(versions)}`) + example;
  });
}

/** `[1,2,3,5]` → `1-3,5`. */
export function compactVersions(versions: readonly number[]): string {
  const sorted = [...new Set(versions)].filter((v) => v >= 0).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
