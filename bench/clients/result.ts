/** What every benchmarked client reports for one round. */
export interface ClientResult {
  records: number;
  /** Key + value bytes delivered. */
  bytes: number;
  /** Time spent consuming, start-up excluded. */
  seconds: number;
  /** User + system CPU of the client process. */
  cpuSeconds: number;
  peakRssBytes: number;
  /** `node vX` or `java`. */
  runtime: string;
  checksum?: number;
  /**
   * Group workloads: copies read beyond the first (records read again after a rebalance); records, bytes and
   * checksum above count each record once. Undefined where not known (single process, older members).
   */
  reReads?: number;
  /** Group workloads: the group as described when every record was read (protocol, assignor, partitions per member). */
  group?: string;
}
