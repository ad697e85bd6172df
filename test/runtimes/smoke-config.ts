/**
 * What the runtime smoke test (test/runtimes/smoke.ts) is given and what it prints: shared by the script and by
 * the vitest test that spawns it on Bun and Deno (test/integration/runtimes/smoke.test.ts).
 */
import type { CompressionCodecName } from '../../src/index.js';

/** Every codec, so each runtime's zlib (gzip, zstd) and the pure-JS ones (snappy, lz4) encode and decode. */
export const SMOKE_CODECS: readonly CompressionCodecName[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];
export const SMOKE_RECORDS_PER_CODEC = 4;

export interface SmokeConfig {
  /** Plaintext listener of a shared broker. */
  bootstrap: string;
  topic: string;
  /** The broker-committing group; `${groupId}-file` keeps its offsets in a FileOffsetStore under offsetsDir. */
  groupId: string;
  offsetsDir: string;
  /** The mutual-TLS round trip; absent against the 3.9 broker (the runtime's TLS path is one, run on 4.4). */
  tls?: {
    /** Listener that requires a client certificate. */
    mtlsBootstrap: string;
    topic: string;
    ca: string;
    clientCert: string;
    clientKey: string;
  };
}

/** One record as produced (its ack) or consumed; offsets are decimal strings in the JSON lines. */
export interface SmokeRecord {
  partition: number;
  offset: bigint;
  value: string;
}
