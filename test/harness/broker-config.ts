import { randomBytes } from 'node:crypto';
import { kafkaMajor } from './versions.js';

/** The test user on the SASL listener; the same password works for PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512. */
export const SASL_USERNAME = 'tidemark';
export const SASL_PASSWORD = 'tidemark-secret';
export const SASL_MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

/**
 * Inter-broker traffic stays on PLAINTEXT, so no admin credential is needed by the broker itself.
 * This second user exists so tests can check that a wrong user / wrong password is refused
 * while a different, valid user is accepted.
 */
export const SASL_ADMIN_USERNAME = 'admin';
export const SASL_ADMIN_PASSWORD = 'admin-secret';

export const NODE_ID = 1;

/**
 * The KIP-848 session timeout and heartbeat interval of every 4.x test broker (group.consumer.*). A session
 * stays long enough for a static member's process to restart on a loaded machine.
 */
export const KIP848_TIMING = { sessionTimeoutMs: 20_000, heartbeatIntervalMs: 2_000 } as const;

/** Kafka's Uuid text form: 16 random bytes, url-safe base64; Kafka never hands out one starting with '-'. */
export function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export interface BrokerPorts {
  plaintext: number;
  sasl: number;
  controller: number;
  /** With `security.tls`: SSL (no client certificate), MTLS (SSL requiring one) and SASL_SSL listeners. */
  ssl?: number;
  mtls?: number;
  saslSsl?: number;
}

/** Opt-in listener security for a broker started by a test (the shared brokers have none of it). */
export interface BrokerSecurityInput {
  /** PEM files from tls-certs.ts; adds the SSL, MTLS and SASL_SSL listeners (ports.ssl/mtls/saslSsl). */
  tls?: { caCert: string; brokerKeystore: string };
  /** `connections.max.reauth.ms`: the session lifetime the broker reports, so clients must re-authenticate. */
  reauthMs?: number;
  /** Enables OAUTHBEARER with Kafka's unsecured-JWS validator (tokens with `"alg":"none"`) on the SASL listeners. */
  oauthbearer?: boolean;
  /**
   * Kafka's StandardAuthorizer with `allow.everyone.if.no.acl.found=false`: only the super user `admin` (and
   * ANONYMOUS, see AUTHORIZER_SUPER_USERS) may do anything until ACLs allow it, so denials can be tested.
   */
  authorizer?: boolean;
}

/**
 * `admin` is the super user tests act as. ANONYMOUS is one too because the broker talks to itself over the
 * PLAINTEXT inter-broker and CONTROLLER listeners, which carry no identity: without it the node could not
 * register with its own controller. So a client on the PLAINTEXT port is a super user; tests of denials
 * connect over SASL as `tidemark`, which holds no rights but those ACLs grant.
 */
export const AUTHORIZER_SUPER_USERS = [`User:${SASL_ADMIN_USERNAME}`, 'User:ANONYMOUS'] as const;

export interface BrokerConfigInput {
  kafkaVersion: string;
  ports: BrokerPorts;
  logDir: string;
  /** Address the listeners bind to; a container binds all of its own interfaces and is published on loopback. */
  listenHost?: string;
  security?: BrokerSecurityInput;
  /** A node of a multi-node cluster: its id and the static voter set (`id@host:port,…`) of all nodes. */
  node?: { id: number; quorumVoters: string };
  /** Applied last, over everything above (replication factors, timeouts of a multi-node cluster). */
  overrides?: Record<string, string | number | boolean>;
}

function jaasValue(s: string): string {
  return JSON.stringify(s);
}

export function serverProperties({
  kafkaVersion,
  ports,
  logDir,
  listenHost,
  security,
  node,
  overrides,
}: BrokerConfigInput): string {
  const host = '127.0.0.1';
  const bind = listenHost ?? host;
  const plainUsers = [
    [SASL_USERNAME, SASL_PASSWORD],
    [SASL_ADMIN_USERNAME, SASL_ADMIN_PASSWORD],
  ]
    .map(([u, p]) => `user_${u}=${jaasValue(p)}`)
    .join(' ');
  const props: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': node?.id ?? NODE_ID,
    // A static voter set works the same way on 3.9 and 4.x, so format needs no --standalone.
    'controller.quorum.voters': node?.quorumVoters ?? `${NODE_ID}@${host}:${ports.controller}`,
    listeners: `PLAINTEXT://${bind}:${ports.plaintext},SASL_PLAINTEXT://${bind}:${ports.sasl},CONTROLLER://${bind}:${ports.controller}`,
    'advertised.listeners': `PLAINTEXT://${host}:${ports.plaintext},SASL_PLAINTEXT://${host}:${ports.sasl}`,
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'sasl.enabled.mechanisms': SASL_MECHANISMS.join(','),
    'listener.name.sasl_plaintext.plain.sasl.jaas.config': `org.apache.kafka.common.security.plain.PlainLoginModule required ${plainUsers};`,
    // SCRAM credentials live in the metadata log (added at format time), the login module only switches SCRAM on.
    'listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config':
      'org.apache.kafka.common.security.scram.ScramLoginModule required;',
    'listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config':
      'org.apache.kafka.common.security.scram.ScramLoginModule required;',
    'log.dirs': logDir,
    'num.partitions': 1,
    'default.replication.factor': 1,
    'offsets.topic.replication.factor': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'group.initial.rebalance.delay.ms': 0,
    'auto.create.topics.enable': false,
    // Test records carry fixed timestamps from 2023; time retention (7 days by default, checked every 5 minutes)
    // would delete whole logs between a test's write and its read. Nothing in a test broker expires.
    'log.retention.ms': -1,
  };
  if (security !== undefined) addSecurity(props, security, ports, bind, host, plainUsers);
  if (kafkaMajor(kafkaVersion) >= 4) {
    // Share groups (KIP-932) have their own internal topic; unknown keys only warn on 3.x, but keep its log clean.
    props['share.coordinator.state.topic.replication.factor'] = 1;
    props['share.coordinator.state.topic.min.isr'] = 1;
    // KIP-848 sessions and heartbeats are the broker's. Its defaults (45 s, 5 s) made the group suites wait
    // minutes for each killed member and each rebalance round; the behaviour tested is the same with shorter ones.
    props['group.consumer.min.session.timeout.ms'] = KIP848_TIMING.sessionTimeoutMs;
    props['group.consumer.session.timeout.ms'] = KIP848_TIMING.sessionTimeoutMs;
    props['group.consumer.min.heartbeat.interval.ms'] = KIP848_TIMING.heartbeatIntervalMs;
    props['group.consumer.heartbeat.interval.ms'] = KIP848_TIMING.heartbeatIntervalMs;
  }
  Object.assign(props, overrides);
  return `${Object.entries(props)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`;
}

const SCRAM_MODULE = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
const OAUTH_MODULE =
  'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="admin";';

type Props = Record<string, string | number | boolean>;

function addSecurity(
  props: Props,
  security: BrokerSecurityInput,
  ports: BrokerPorts,
  bind: string,
  host: string,
  plainUsers: string,
): void {
  const saslListeners = ['sasl_plaintext'];
  if (security.tls !== undefined) {
    const { ssl, mtls, saslSsl } = ports;
    if (ssl === undefined || mtls === undefined || saslSsl === undefined)
      throw new Error('TLS needs ports.ssl, mtls and saslSsl');
    const extra = [`SSL://%:${ssl}`, `MTLS://%:${mtls}`, `SASL_SSL://%:${saslSsl}`];
    props.listeners = [props.listeners, ...extra.map((l) => l.replace('%', bind))].join(',');
    props['advertised.listeners'] = [props['advertised.listeners'], ...extra.map((l) => l.replace('%', host))].join(
      ',',
    );
    props['listener.security.protocol.map'] += ',SSL:SSL,MTLS:SSL,SASL_SSL:SASL_SSL';
    props['ssl.keystore.type'] = 'PEM';
    props['ssl.keystore.location'] = security.tls.brokerKeystore;
    props['ssl.truststore.type'] = 'PEM';
    props['ssl.truststore.location'] = security.tls.caCert;
    props['listener.name.mtls.ssl.client.auth'] = 'required';
    props['listener.name.sasl_ssl.plain.sasl.jaas.config'] =
      `org.apache.kafka.common.security.plain.PlainLoginModule required ${plainUsers};`;
    props['listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config'] = SCRAM_MODULE;
    props['listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config'] = SCRAM_MODULE;
    saslListeners.push('sasl_ssl');
  }
  if (security.reauthMs !== undefined) props['connections.max.reauth.ms'] = security.reauthMs;
  if (security.authorizer) {
    // The same class name on 3.9 and 4.x (KRaft's authorizer; ACLs live in the metadata log).
    props['authorizer.class.name'] = 'org.apache.kafka.metadata.authorizer.StandardAuthorizer';
    props['super.users'] = AUTHORIZER_SUPER_USERS.join(';');
    props['allow.everyone.if.no.acl.found'] = false;
  }
  if (security.oauthbearer) {
    props['sasl.enabled.mechanisms'] += ',OAUTHBEARER';
    for (const l of saslListeners) props[`listener.name.${l}.oauthbearer.sasl.jaas.config`] = OAUTH_MODULE;
  }
}

/** StorageTool arguments that create the SCRAM users inside the bootstrap metadata (KIP-900, Kafka >= 3.5). */
export function scramFormatArgs(): string[] {
  const args: string[] = [];
  for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512']) {
    for (const [user, password] of [
      [SASL_USERNAME, SASL_PASSWORD],
      [SASL_ADMIN_USERNAME, SASL_ADMIN_PASSWORD],
    ]) {
      args.push('--add-scram', `${mechanism}=[name=${user},password=${password}]`);
    }
  }
  return args;
}

/**
 * One log4j2 config for every Kafka version (the pom puts log4j2 behind slf4j for 3.9 too).
 * The file name comes from a system property so one config file serves format and server runs.
 */
export const LOG4J2_PROPERTIES = `status = warn
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = \${sys:tidemark.log.file}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
# Per-request and per-partition chatter that would drown what matters when a start fails.
logger.requestChannel.name = kafka.request.logger
logger.requestChannel.level = WARN
logger.authorizer.name = kafka.authorizer.logger
logger.authorizer.level = WARN
`;
