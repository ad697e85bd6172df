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
}
