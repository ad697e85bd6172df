/**
 * The authorizer-enabled brokers of the security admin tests: one per Kafka generation (4.x and 3.9), started
 * by the harness with StandardAuthorizer, super user `admin` and no rights for anyone else without an ACL.
 *
 * While developing, brokers started once (harness `startBroker({ security: { authorizer: true } })`) can be
 * reused: TIDEMARK_AUTHZ_BROKERS="4.4.0=<plaintext>,<sasl>;3.9.1=<plaintext>,<sasl>".
 */
import { type KafkaBroker, startBroker } from '../../harness/broker.js';
import { SASL_ADMIN_PASSWORD, SASL_ADMIN_USERNAME, SASL_PASSWORD, SASL_USERNAME } from '../../harness/context.js';

export interface AuthzBroker {
  kafkaVersion: string;
  /** PLAINTEXT: ANONYMOUS, a super user (the broker's own listeners need it). */
  bootstrap: string;
  /** SASL_PLAINTEXT, where `admin` (super user) and `tidemark` (no rights but granted ones) log in. */
  saslBootstrap: string;
  stop(): Promise<void>;
}

export const ADMIN_SASL = {
  mechanism: 'SCRAM-SHA-512',
  username: SASL_ADMIN_USERNAME,
  password: SASL_ADMIN_PASSWORD,
} as const;
export const USER_SASL = { mechanism: 'SCRAM-SHA-512', username: SASL_USERNAME, password: SASL_PASSWORD } as const;

function reused(kafkaVersion: string): AuthzBroker | undefined {
  for (const part of (process.env.TIDEMARK_AUTHZ_BROKERS ?? '').split(';')) {
    const [version, addresses] = part.split('=');
    if (version !== kafkaVersion || addresses === undefined) continue;
    const [bootstrap, saslBootstrap] = addresses.split(',');
    return { kafkaVersion, bootstrap, saslBootstrap, stop: async () => {} };
  }
  return undefined;
}

export async function startAuthzBroker(kafkaVersion: string): Promise<AuthzBroker> {
  const existing = reused(kafkaVersion);
  if (existing !== undefined) return existing;
  const broker: KafkaBroker = await startBroker({
    kafkaVersion,
    name: `tm-authz-${kafkaVersion.replaceAll('.', '')}-${process.pid}`,
    security: { authorizer: true },
  });
  return broker;
}
