/** Helpers for integration tests: where the brokers of this run are, and collision-free names. */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import './provided-context.js';

export { SASL_ADMIN_PASSWORD, SASL_ADMIN_USERNAME, SASL_PASSWORD, SASL_USERNAME } from './broker-config.js';

/** PLAINTEXT bootstrap of the 4.x broker (always present in the integration project). */
export function bootstrap(): string {
  return inject('kafkaBootstrap');
}

/** SASL_PLAINTEXT bootstrap of the 4.x broker, or null. */
export function saslBootstrap(): string | null {
  return inject('kafkaSaslBootstrap');
}

/** PLAINTEXT bootstrap of the 3.9 broker, or null when this run has none (use with it.skipIf). */
export function legacyBootstrap(): string | null {
  return inject('kafkaLegacyBootstrap');
}

export function legacySaslBootstrap(): string | null {
  return inject('kafkaLegacySaslBootstrap');
}

export function kafkaVersion(): string | null {
  return inject('kafkaVersion');
}

export function legacyKafkaVersion(): string | null {
  return inject('kafkaLegacyVersion');
}

/**
 * A topic name no other test (or earlier run against a long-lived KAFKA_BOOTSTRAP cluster) has used.
 * Kafka allows [a-zA-Z0-9._-], at most 249 chars; '.' and '_' collide in metric names, so only '-' is used.
 */
export function uniqueTopicName(prefix = 'test'): string {
  const clean = prefix.replace(/[^a-zA-Z0-9-]/g, '-').slice(0, 200);
  return `${clean}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
