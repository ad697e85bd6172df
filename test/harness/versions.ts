/** Newest 4.x on Maven Central when the harness was written; override per call or with the CLI flag. */
export const DEFAULT_KAFKA_VERSION = '4.4.0';

/** Last 3.x line: still speaks the protocol versions that Kafka 4.0 removed (KIP-896). */
export const LEGACY_KAFKA_VERSION = '3.9.1';

export function checkKafkaVersion(version: string): string {
  // The version ends up in Maven arguments and file names.
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(`invalid Kafka version "${version}": expected x.y.z, e.g. ${DEFAULT_KAFKA_VERSION}`);
  }
  return version;
}

export function kafkaMajor(version: string): number {
  return Number.parseInt(version.split('.')[0], 10);
}
