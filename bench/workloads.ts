import type { CompressionCodecName } from '../codecs/compression/codec.js';

/** One benchmark workload: what is loaded once and then read by every client. */
export interface WorkloadSpec {
  /** What `--workload` takes and what names the results file (bench/results/fetch-<name>.md; the headline is fetch.md). */
  name: string;
  records: number;
  partitions: number;
  keyBytes: number;
  valueBytes: number;
  compression: Exclude<CompressionCodecName, 'gzip'>;
  /** Read by a consumer group of this many processes per client (bench/clients/group.ts), not by one. */
  groupMembers?: number;
}

const headline: WorkloadSpec = {
  name: 'headline',
  records: 2_000_000,
  partitions: 8,
  keyBytes: 8,
  valueBytes: 100,
  compression: 'none',
};

/**
 * The headline first (the only one run by default, and the one `--json`
 * reports), then the variants of the issue: 1 KiB values (fewer records, so
 * the topic stays near 0.5 GiB), each compression codec Kafka's clients
 * share, and one partition against eight. Then the scale workloads: 1,000
 * partitions (fetch sessions should keep it near the 8-partition headline)
 * and a group of 4 consumer processes on 32 partitions.
 */
export const WORKLOADS: readonly WorkloadSpec[] = [
  headline,
  { ...headline, name: 'values-1k', records: 500_000, valueBytes: 1024 },
  { ...headline, name: 'snappy', compression: 'snappy' },
  { ...headline, name: 'lz4', compression: 'lz4' },
  { ...headline, name: 'zstd', compression: 'zstd' },
  { ...headline, name: 'partitions-1', partitions: 1 },
  { ...headline, name: 'partitions-1000', partitions: 1000 },
  { ...headline, name: 'group-4', partitions: 32, groupMembers: 4 },
];

export function describeWorkload(w: WorkloadSpec): string {
  const parts = [
    `${w.records.toLocaleString('en-US')} records`,
    `${w.valueBytes === 1024 ? '1 KiB' : `${w.valueBytes}-byte`} values`,
    `${w.keyBytes}-byte keys`,
    `${w.partitions} partition${w.partitions === 1 ? '' : 's'}`,
  ];
  if (w.compression !== 'none') parts.push(`${w.compression}-compressed`);
  if (w.groupMembers !== undefined) parts.push(`a group of ${w.groupMembers} consumer processes`);
  return parts.join(', ');
}

/** The results file stem: fetch.md for the headline, fetch-<name>.md for the others. */
export function resultStem(w: WorkloadSpec): string {
  return w.name === 'headline' ? 'fetch' : `fetch-${w.name}`;
}
