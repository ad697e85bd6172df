/**
 * The same broker as broker.ts, as an `apache/kafka` container (TIDEMARK_BROKER=docker), for machines that
 * have a Docker engine but no Java/Maven. Same server.properties, same SCRAM-at-format, same ports inside and
 * outside the container (so advertised addresses need no translation), published on 127.0.0.1 only.
 */
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { NODE_ID, newClusterId, scramFormatArgs, serverProperties } from './broker-config.js';
import { notReadyReason } from './probe.js';
import { freePorts, sleep } from './process.js';
import { checkKafkaVersion, DEFAULT_KAFKA_VERSION } from './versions.js';

export { dockerAvailable } from './docker-detect.js';

export interface DockerKafkaBroker {
  name: string;
  kafkaVersion: string;
  bootstrap: string;
  saslBootstrap: string;
  containerId: string;
  startMs: number;
  stop(): Promise<void>;
}

/** Publishes every port on 127.0.0.1 only; testcontainers' own API binds them on all interfaces. */
class LoopbackContainer extends GenericContainer {
  protected override async beforeContainerCreated(): Promise<void> {
    for (const bindings of Object.values(this.hostConfig.PortBindings ?? {}) as { HostIp?: string }[][]) {
      for (const binding of bindings) binding.HostIp = '127.0.0.1';
    }
  }
}

const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export interface StartDockerBrokerOptions {
  kafkaVersion?: string;
  name?: string;
  /** Defaults to the official image of the same version. */
  image?: string;
  timeoutMs?: number;
}

export async function startDockerBroker(options: StartDockerBrokerOptions = {}): Promise<DockerKafkaBroker> {
  const t0 = Date.now();
  const kafkaVersion = checkKafkaVersion(options.kafkaVersion ?? DEFAULT_KAFKA_VERSION);
  const name = options.name ?? 'docker';
  const timeoutMs = options.timeoutMs ?? 180_000;
  const [plaintext, sasl, controller] = await freePorts(3);
  const ports = { plaintext, sasl, controller };
  const config = '/tmp/tidemark/server.properties';
  // Data outside /tmp/tidemark: that directory is created by the copy as root, and the image runs as appuser.
  const props = serverProperties({ kafkaVersion, ports, logDir: '/tmp/tidemark-kraft', listenHost: '0.0.0.0' });
  // The image's own entrypoint would rebuild the config from env vars; format and start exactly our config instead.
  const script = [
    `/opt/kafka/bin/kafka-storage.sh format --cluster-id ${newClusterId()} --config ${config} ${scramFormatArgs().map(shellQuote).join(' ')}`,
    `exec /opt/kafka/bin/kafka-server-start.sh ${config}`,
  ].join(' && ');
  const container: StartedTestContainer = await new LoopbackContainer(options.image ?? `apache/kafka:${kafkaVersion}`)
    .withName(`tidemark-${name}-${plaintext}`)
    .withCopyContentToContainer([{ content: props, target: config, mode: 0o644 }])
    .withExposedPorts({ container: plaintext, host: plaintext }, { container: sasl, host: sasl })
    .withEnvironment({ KAFKA_HEAP_OPTS: '-Xmx512m -Xms512m' })
    .withEntrypoint(['/bin/sh', '-c'])
    .withCommand([script])
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .withStartupTimeout(timeoutMs)
    .start();
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const reason = await notReadyReason('127.0.0.1', plaintext, sasl, NODE_ID);
      if (reason === null) break;
      if (Date.now() > deadline) throw new Error(`Kafka container ${container.getId()} not ready: ${reason}`);
      await sleep(200);
    }
  } catch (err) {
    await container.stop().catch(() => {});
    throw err;
  }
  return {
    name,
    kafkaVersion,
    bootstrap: `127.0.0.1:${plaintext}`,
    saslBootstrap: `127.0.0.1:${sasl}`,
    containerId: container.getId(),
    startMs: Date.now() - t0,
    stop: async () => {
      await container.stop();
    },
  };
}
