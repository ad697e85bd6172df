/**
 * What test/harness/global-setup.ts hands to integration tests through vitest's provide/inject.
 * null means "not available in this run" (e.g. KAFKA_BOOTSTRAP without KAFKA_BOOTSTRAP_LEGACY):
 * tests that need it skip.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The current-generation (4.x) broker, PLAINTEXT listener. */
    kafkaBootstrap: string;
    /** Its SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512); null for an external cluster without one. */
    kafkaSaslBootstrap: string | null;
    /** Kafka version of kafkaBootstrap; null when an external cluster did not say (KAFKA_VERSION). */
    kafkaVersion: string | null;
    /** A 3.9 broker: still speaks the protocol versions Kafka 4.0 dropped (KIP-896). */
    kafkaLegacyBootstrap: string | null;
    kafkaLegacySaslBootstrap: string | null;
    kafkaLegacyVersion: string | null;
  }
}

export {};
